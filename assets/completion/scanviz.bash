# bash completion for scanviz, scanviz-trace and scanviz-bench.
#
# Meson installs this one file three times, once under each program's name, in
# bash-completion's completions folder (pkg-config bash-completion
# completionsdir under the install prefix), where bash-completion loads it the
# first time Tab is pressed after one of the three names.
#
# This file is a template: src/cli/options_gen fills the @...@ lines from the
# option table (src/core/options.def) at build time, so the flags and their
# values are those the programs take. Add a flag: add its row there.
# tests/install/check_install.py (meson test --suite install) still compares
# them with each program's --help both ways, and each list of values with
# the values the program names when given a bad one.

_scanviz_flags_scanviz='@FLAGS_scanviz@'
_scanviz_flags_scanviz_trace='@FLAGS_scanviz_trace@'
_scanviz_flags_scanviz_bench='@FLAGS_scanviz_bench@'

# The values of the flags that take one of a fixed set, whichever program has
# the flag. Prints them, or returns 1 for any other flag.
_scanviz_values()
{
    case $1 in
@VALUES@
        *) return 1 ;;
    esac
}

# File names, through bash-completion's _filedir when it is loaded.
# $1: an extension (json, png), -d for folders, or nothing for any file.
_scanviz_files()
{
    if declare -F _filedir >/dev/null; then
        _filedir "$@"
    elif [[ ${1-} == -d ]]; then
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

_scanviz()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
    fi

    local flags
    case ${1##*/} in
        scanviz-trace) flags=$_scanviz_flags_scanviz_trace ;;
        scanviz-bench) flags=$_scanviz_flags_scanviz_bench ;;
        *) flags=$_scanviz_flags_scanviz ;;
    esac

    local values
    if values=$(_scanviz_values "$prev"); then
        if [[ $prev == --algo ]]; then
            # A comma list: complete the item after the last comma.
            local head=${cur%"${cur##*,}"}
            mapfile -t COMPREPLY < <(compgen -P "$head" -W "$values" -- "${cur##*,}")
            compopt -o nospace 2>/dev/null
        else
            mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
        fi
        return
    fi
    case $prev in
@FILES@
@FREE@
    esac
    [[ $split == true ]] && return

    if [[ $cur == -* || ${1##*/} != scanviz ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
    else
        # scanviz FILE.json opens a trace, as the desktop entry does.
        _scanviz_files json
    fi
}
complete -F _scanviz scanviz scanviz-trace scanviz-bench
