/* What a kernel's .so may hold (so_check.h), through libelf. */
#include "so_check.h"

#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../core/escape.h"

/* What the compiler's start files (crtbeginS.o, crti.o) import, weakly or not. */
static const char *const crt_imports[] = {
    "__cxa_finalize", "__gmon_start__", "_ITM_registerTMCloneTable",
    "_ITM_deregisterTMCloneTable", "__stack_chk_fail", "__cxa_pure_virtual",
    "__cxa_deleted_virtual", NULL,
};

/* libm's functions a kernel may call (pure: a value in, a value out). */
static const char *const math_imports[] = {
    "expf", "exp2f", "expm1f", "logf", "log2f", "log10f", "log1pf", "powf", "sqrtf", "cbrtf",
    "sinf", "cosf", "tanf", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf", "tanhf",
    "asinhf", "acoshf", "atanhf", "erff", "erfcf", "tgammaf", "lgammaf", "fmaf", "fmodf",
    "remainderf", "hypotf", "floorf", "ceilf", "roundf", "truncf", "rintf", "nearbyintf",
    "lroundf", "llroundf", "lrintf", "llrintf", "fdimf", "fminf", "fmaxf", "fabsf", "ldexpf",
    "frexpf", "scalbnf", "copysignf", "nextafterf", "exp", "exp2", "expm1", "log", "log2",
    "log10", "log1p", "pow", "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan",
    "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "tgamma",
    "lgamma", "fma", "fmod", "remainder", "hypot", "floor", "ceil", "round", "trunc", "rint",
    "nearbyint", "lround", "llround", "lrint", "llrint", "fdim", "fmin", "fmax", "fabs",
    "ldexp", "frexp", "scalbn", "copysign", "nextafter", NULL,
};

/* The functions the compiler may put in .init_array: crtbeginS.o's and
 * the thread sanitizer's module constructor (gcc, clang). */
static const char *const crt_inits[] = {"frame_dummy", "_sub_I_00099_0", "tsan.module_ctor",
                                        NULL};

/* The libraries a kernel's .so may need (all loaded already by the runtime). */
static const char *const needed_ok[] = {"libc.so.6", "libm.so.6", "libstdc++.so.6",
                                        "libgcc_s.so.1", "ld-linux-x86-64.so.2",
                                        "ld-linux-aarch64.so.1", NULL};

static bool listed(const char *const *list, const char *s)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

/* The words for an import a kernel may not have. */
static void import_words(const char *name, char *err, size_t errlen)
{
    char esc[256];
    sv_escape(name, esc, sizeof esc);
    if (strncmp(name, "_Zn", 3) == 0 || strncmp(name, "_Zd", 3) == 0)
        sv_errorf(err, errlen, "the kernel uses operator new or delete (`%s`), which a kernel "
                  "file cannot: use malloc and free", esc);
    else if (strcmp(name, "__cxa_atexit") == 0)
        sv_errorf(err, errlen, "the kernel has a static object with a destructor (it imports "
                  "`__cxa_atexit`), which a kernel file cannot have");
    else if (strcmp(name, "__tls_get_addr") == 0)
        sv_errorf(err, errlen, "the kernel uses thread-local storage (`__tls_get_addr`), which "
                  "a kernel file cannot");
    else
        sv_errorf(err, errlen, "the kernel calls `%s`, which a kernel cannot call (a kernel "
                  "file may call only the math functions the user guide lists)", esc);
}

typedef struct elfv {
    Elf *e;
    GElf_Ehdr eh;
    Elf_Scn *symtab, *dynsym, *dynamic, *rela_dyn;
    GElf_Shdr symtab_h, dynsym_h, dynamic_h, rela_h;
} elfv;

/* The local function symbol at address a in .symtab: its name, NULL. */
static const char *func_at(elfv *v, GElf_Addr a, bool *local)
{
    if (!v->symtab)
        return NULL;
    Elf_Data *d = elf_getdata(v->symtab, NULL);
    size_t n = v->symtab_h.sh_entsize ? v->symtab_h.sh_size / v->symtab_h.sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s))
            break;
        if (GELF_ST_TYPE(s.st_info) == STT_FUNC && s.st_value == a && s.st_shndx != SHN_UNDEF) {
            *local = GELF_ST_BIND(s.st_info) == STB_LOCAL;
            return elf_strptr(v->e, v->symtab_h.sh_link, s.st_name);
        }
    }
    return NULL;
}

/* Where slot at address a of an init array points: its relocation's
 * target (RELATIVE: the addend), found in .rela.dyn; false if none. */
static bool slot_target(elfv *v, GElf_Addr a, GElf_Addr *target)
{
    if (!v->rela_dyn)
        return false;
    Elf_Data *d = elf_getdata(v->rela_dyn, NULL);
    size_t n = v->rela_h.sh_entsize ? v->rela_h.sh_size / v->rela_h.sh_entsize : 0;
    unsigned rel = v->eh.e_machine == EM_AARCH64 ? 1027u /* R_AARCH64_RELATIVE */
                                                 : 8u;   /* R_X86_64_RELATIVE */
    for (size_t i = 0; d && i < n; i++) {
        GElf_Rela r;
        if (!gelf_getrela(d, (int)i, &r))
            break;
        if (r.r_offset == a) {
            if (GELF_R_TYPE(r.r_info) != rel)
                return false;
            *target = (GElf_Addr)r.r_addend;
            return true;
        }
    }
    return false;
}

static bool check_inits(elfv *v, const GElf_Shdr *h, const char *what, char *err, size_t errlen)
{
    size_t slots = h->sh_size / 8;
    for (size_t k = 0; k < slots; k++) {
        GElf_Addr t = 0;
        bool local = false;
        const char *name = slot_target(v, h->sh_addr + 8 * k, &t) ? func_at(v, t, &local) : NULL;
        if (!name || !local || !listed(crt_inits, name)) {
            char esc[256];
            sv_escape(name ? name : "code at load", esc, sizeof esc);
            sv_errorf(err, errlen, "the kernel has code that runs when it is loaded (%s, in %s: "
                      "a constructor or a static initializer), which a kernel file cannot have: "
                      "code may not run before the kernel", esc, what);
            return false;
        }
    }
    return true;
}

bool sv_rt_so_check(const void *bytes, size_t len, char *err, size_t errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        sv_errorf(err, errlen, "libelf: %s", elf_errmsg(-1));
        return false;
    }
    elfv v;
    memset(&v, 0, sizeof v);
    v.e = elf_memory((char *)bytes, len);
    bool ok = false;
    if (!v.e || elf_kind(v.e) != ELF_K_ELF || !gelf_getehdr(v.e, &v.eh) || v.eh.e_type != ET_DYN ||
        gelf_getclass(v.e) != ELFCLASS64) {
        sv_errorf(err, errlen, "the kernel's compiled object is not a 64-bit ELF shared object");
        goto done;
    }
    size_t shstr;
    if (elf_getshdrstrndx(v.e, &shstr) != 0) {
        sv_errorf(err, errlen, "the kernel's compiled object has no section names");
        goto done;
    }
    for (Elf_Scn *s = NULL; (s = elf_nextscn(v.e, s)) != NULL;) {
        GElf_Shdr h;
        if (!gelf_getshdr(s, &h))
            continue;
        const char *nm = elf_strptr(v.e, shstr, h.sh_name);
        if (h.sh_type == SHT_SYMTAB)
            v.symtab = s, v.symtab_h = h;
        else if (h.sh_type == SHT_DYNSYM)
            v.dynsym = s, v.dynsym_h = h;
        else if (h.sh_type == SHT_DYNAMIC)
            v.dynamic = s, v.dynamic_h = h;
        else if (h.sh_type == SHT_RELA && nm && strcmp(nm, ".rela.dyn") == 0)
            v.rela_dyn = s, v.rela_h = h;
    }
    /* the imports */
    if (v.dynsym) {
        Elf_Data *d = elf_getdata(v.dynsym, NULL);
        size_t n = v.dynsym_h.sh_entsize ? v.dynsym_h.sh_size / v.dynsym_h.sh_entsize : 0;
        for (size_t i = 1; d && i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF)
                continue;
            const char *name = elf_strptr(v.e, v.dynsym_h.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            if (!listed(crt_imports, name) && !listed(math_imports, name)) {
                import_words(name, err, errlen);
                goto done;
            }
        }
    }
    /* the libraries it needs, and the code that runs at load */
    if (v.dynamic) {
        Elf_Data *d = elf_getdata(v.dynamic, NULL);
        size_t n = v.dynamic_h.sh_entsize ? v.dynamic_h.sh_size / v.dynamic_h.sh_entsize : 0;
        for (size_t i = 0; d && i < n; i++) {
            GElf_Dyn dy;
            if (!gelf_getdyn(d, (int)i, &dy) || dy.d_tag == DT_NULL)
                break;
            if (dy.d_tag == DT_NEEDED) {
                const char *lib = elf_strptr(v.e, v.dynamic_h.sh_link, dy.d_un.d_val);
                if (!lib || !listed(needed_ok, lib)) {
                    char esc[256];
                    sv_escape(lib ? lib : "?", esc, sizeof esc);
                    sv_errorf(err, errlen, "the kernel needs the library %s, which a kernel "
                              "cannot load", esc);
                    goto done;
                }
            } else if (dy.d_tag == DT_INIT) {
                bool local = false;
                const char *name = func_at(&v, dy.d_un.d_ptr, &local);
                if (!name || strcmp(name, "_init") != 0) {
                    sv_errorf(err, errlen, "the kernel has code that runs when it is loaded "
                              "(DT_INIT), which a kernel file cannot have");
                    goto done;
                }
            } else if (dy.d_tag == DT_PREINIT_ARRAY) {
                sv_errorf(err, errlen, "the kernel has code that runs when it is loaded "
                          "(a preinit array), which a kernel file cannot have");
                goto done;
            }
        }
    }
    if (!v.symtab) {
        sv_errorf(err, errlen, "the kernel's compiled object has no symbol table, so what it "
                  "runs at load cannot be checked");
        goto done;
    }
    for (Elf_Scn *s = NULL; (s = elf_nextscn(v.e, s)) != NULL;) {
        GElf_Shdr h;
        if (!gelf_getshdr(s, &h))
            continue;
        const char *nm = elf_strptr(v.e, shstr, h.sh_name);
        if (h.sh_type == SHT_INIT_ARRAY && !check_inits(&v, &h, ".init_array", err, errlen))
            goto done;
        if (h.sh_type == SHT_PREINIT_ARRAY ||
            (nm && (strcmp(nm, ".ctors") == 0 || strcmp(nm, ".preinit_array") == 0) &&
             h.sh_size > 16)) {
            sv_errorf(err, errlen, "the kernel has code that runs when it is loaded (%s), "
                      "which a kernel file cannot have", nm ? nm : "?");
            goto done;
        }
    }
    ok = true;
done:
    if (v.e)
        elf_end(v.e);
    return ok;
}
