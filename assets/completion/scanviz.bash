# bash completion for scanviz, scanviz-trace and scanviz-bench.
#
# Meson installs this one file three times, once under each program's name, in
# bash-completion's completions folder (pkg-config bash-completion
# completionsdir under the install prefix), where bash-completion loads it the
# first time Tab is pressed after one of the three names.
#
# The flag lists below must equal what each program's --help lists:
# tests/install/check_install.py (meson test --suite install) compares them
# both ways, and compares each list of values below with the values the
# program names when given a bad one. Add a flag to a program: add it here.

_scanviz_flags_scanviz='--input --file --random --seed --trace
    --op --type --exclusive --inclusive --backend --kernel --schedule
    --runs --shake --shake-seed
    --round --theme --fullscreen --speed --autoplay --no-animation --quiz --size
    --export --export-plot --bench-csv --bench-frames --help --version
    --clean --scale --overview --export-gif --export-svg --script --code'
_scanviz_flags_scanviz_trace='--input --file --random --seed
    --op --type --exclusive --backend
    --kernel --schedule --runs --shake --shake-seed --racecheck
    --format -o --verify --open -h --help -V --version'
_scanviz_flags_scanviz_bench='--algo --sizes --type --reps --csv --capture --progress-csv --help --version'

# The values of the flags that take one of a fixed set, whichever program has
# the flag. Prints them, or returns 1 for any other flag.
_scanviz_values()
{
    case $1 in
        --op) echo 'sum max min product xor' ;;
        --type) echo 'int32 float32' ;;
        --backend) echo 'auto cuda cpu' ;;
        --theme) echo 'dark light contrast' ;;
        --kernel) echo 'correct in-place no-barrier in-place-no-barrier no-else off-by-one pout-accumulate no-guard' ;;
        --format) echo 'table json' ;;
        --algo) echo 'copy cub hs hs-lookback hs-naive blelloch cpu' ;;
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
        --trace | --open) _scanviz_files json; return ;;
        --export-plot) _scanviz_files png; return ;;
        --export-gif) _scanviz_files gif; return ;;
        --export | --export-svg) _scanviz_files -d; return ;;
        --script) _scanviz_files txt; return ;;
        --file | --bench-csv | --csv | -o | --output) _scanviz_files; return ;;
        --input | --random | --seed | --round | --speed | --size | --bench-frames | --scale | \
            --sizes | --reps | --schedule | --runs | --shake-seed) return ;; # a value of the user's own
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
