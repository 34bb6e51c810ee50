# bash completion for nccl-doctor; installed by `meson install` into
# share/bash-completion/completions. scripts/completions_test.py keeps the
# option lists equal to the tool's --help.

_nccl_doctor() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local commands="check rules explain summary graph diff probe preflight"
  local cmd="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      -*) ;;
      *) cmd=${words[i]}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
    return
  fi

  case $prev in
    -f|--format)
      case $cmd in
        check) COMPREPLY=($(compgen -W "text json junit" -- "$cur")) ;;
        rules|summary|probe|diff) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
        graph) COMPREPLY=($(compgen -W "dot json text" -- "$cur")) ;;
        preflight) COMPREPLY=($(compgen -W "text json junit prometheus" -- "$cur")) ;;
      esac
      return ;;
    --fail-on) COMPREPLY=($(compgen -W "error warning info inconclusive" -- "$cur")); return ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --kind) COMPREPLY=($(compgen -W "ring tree all" -- "$cur")); return ;;
    --level) COMPREPLY=($(compgen -W "auto rank host" -- "$cur")); return ;;
    --enable|--disable)
      COMPREPLY=($(compgen -W "$(nccl-doctor rules 2>/dev/null | awk 'NR > 1 {print $1, $2}')" -- "$cur"))
      return ;;
    --sysfs-root|--capture) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --expect-file|--aggregate|--render|-o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --allow-net|--max-evidence|--min-gpu-util|--expect-busbw|--hang-after|--expect|--comm|--channel|--fold-above) return ;;
  esac

  local opts
  case $cmd in
    check) opts="--allow-net --color --disable --enable --expect-busbw --fail-on --format --hang-after --help
                 --list-rules --max-evidence --min-gpu-util --tee --timings --verbose" ;;
    rules) opts="--format --help" ;;
    explain) opts="--help" ;;
    summary) opts="--format --help" ;;
    graph) opts="--allow-net --channel --comm --fold-above --format --help --kind --level --render" ;;
    diff) opts="--allow-net --format --help" ;;
    probe) opts="--capture --format --help --json --no-verbs --sysfs-root" ;;
    preflight) opts="--aggregate --expect --expect-file --format --help --no-local-rules --no-verbs --output --reason
                     --sysfs-root" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ $cmd == explain ]]; then
    COMPREPLY=($(compgen -W "$(nccl-doctor rules 2>/dev/null | awk 'NR > 1 {print $1, $2}')" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _nccl_doctor nccl-doctor
