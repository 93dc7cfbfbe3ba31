
# smfplay PATH... plays as `smfplay play PATH...` does, but the root command of the script
# ArgumentParser generates above takes no paths (the Makefile appends this to it). Here the first
# word completes as a path too, the words after a path as `smfplay play`'s, and the word after
# `smfplay help` as a command. A word is a command when the script above has a function for it.
__smfplay_implicit_play() {
    local -r first="${COMP_WORDS[1]}"
    if [[ "${COMP_CWORD}" -eq 1 ]]; then
        _smfplay "${@}"
        if [[ "${2}" != -* ]]; then
            local IFS=$'\n'
            COMPREPLY+=($(compgen -f -- "${2}"))
        fi
        return
    fi
    if [[ "${first}" == help && "${COMP_CWORD}" -eq 2 ]]; then
        COMPREPLY=($(compgen -W "$(declare -F | sed -n 's/^declare -f _smfplay_\([a-z]*\)$/\1/p')" -- "${2}"))
        return
    fi
    if [[ "${first}" != -* ]] && ! declare -F "_smfplay_${first}" >/dev/null; then
        local -a COMP_WORDS=("${COMP_WORDS[0]}" play "${COMP_WORDS[@]:1}")
        local -i COMP_CWORD=$((COMP_CWORD + 1))
        local COMP_LINE="${COMP_LINE/"${COMP_WORDS[0]}"/"${COMP_WORDS[0]} play"}"
        local -i COMP_POINT=$((COMP_POINT + 5))
    fi
    _smfplay "${@}"
}

complete -o filenames -F __smfplay_implicit_play smfplay
