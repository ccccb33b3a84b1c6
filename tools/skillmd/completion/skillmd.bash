# bash completion for skillmd: commands, each command's flags, preset, dialect and format
# names. Installed as share/bash-completion/completions/skillmd; or `source` this file.
# The flag lists follow tools/skillmd/usage.hpp (tests/cli/completion.sh checks them
# against `skillmd help COMMAND`).

_skillmd_flags() {
  local registry="--preset --dir --db --namespace --pooler --allow-root --user-settings --project-settings --events"
  case $1 in
    parse) echo "--format --parser --lenient --require-frontmatter --max-bytes" ;;
    lint) echo "--format --dialect --strict --parser --portability" ;;
    fmt) echo "--check --fix --format" ;;
    list) echo "$registry --format --installed" ;;
    tree | match) echo "$registry --format" ;;
    index | explain) echo "$registry --format --budget --context-tokens" ;;
    invoke) echo "$registry --as --format --allow --deny --substitution" ;;
    mcp) echo "$registry --page-size --http --token-file --allow-origin --allow-host" ;;
    new) echo "--dir --format" ;;
    digest) echo "--format" ;;
    db) echo "--db --dir --namespace --pooler --name --description --triggers --content --content-file --revision --role --access --format" ;;
    watch) echo "--db --dir --namespace --pooler --for --format" ;;
    install | outdated | update) echo "--into --allow-http --ca-file --timeout --format" ;;
    remove | verify) echo "--into --format" ;;
    publish) echo "--out --base-url --version --format" ;;
    pack) echo "--out --name --format" ;;
  esac
}

_skillmd_formats() {
  case $1 in
    list) echo "text json table" ;;
    index) echo "json pegasus claude-code koshi sven agent-skills agent-skills-guide claude-code-2.1 codex-0.169 gemini-cli-0.61 opencode-1.18" ;;
    invoke) echo "json pegasus claude-code mycode koshi sven agent-skills codex-0.169 gemini-cli-0.61" ;;
    *) echo "text json" ;;
  esac
}

_skillmd() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="parse lint fmt list tree index invoke match explain new digest db watch mcp install remove verify outdated update publish pack help"
  if [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")
    return
  fi
  cmd=${COMP_WORDS[1]}
  case $prev in
    --preset) mapfile -t COMPREPLY < <(compgen -W "agent-skills pegasus claude-code mycode sven koshi claude-code-2.1 codex-0.169 gemini-cli-0.61 opencode-1.18 fleet" -- "$cur"); return ;;
    --format) mapfile -t COMPREPLY < <(compgen -W "$(_skillmd_formats "$cmd")" -- "$cur"); return ;;
    --dialect) mapfile -t COMPREPLY < <(compgen -W "agent-skills pegasus claude-code mycode koshi sven claude-code-2.1 codex-0.169 gemini-cli-0.61 opencode-1.18" -- "$cur"); return ;;
    --parser) mapfile -t COMPREPLY < <(compgen -W "x3 line" -- "$cur"); return ;;
    --as) mapfile -t COMPREPLY < <(compgen -W "user model" -- "$cur"); return ;;
    --substitution) mapfile -t COMPREPLY < <(compgen -W "safe claude-code claude-code-exact" -- "$cur"); return ;;
    --access) mapfile -t COMPREPLY < <(compgen -W "read write" -- "$cur"); return ;;
    --pooler) mapfile -t COMPREPLY < <(compgen -W "transaction" -- "$cur"); return ;;
    --user-settings | --project-settings | --events | --content-file | --allow-root | --db | --token-file | --into | --out | \
      --ca-file | --installed)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    --max-bytes | --budget | --context-tokens | --page-size | --revision | --for | --name | --description | \
      --triggers | --content | --role | --namespace | --allow | --deny | --dir | --http | --allow-origin | --allow-host | \
      --timeout | --base-url | --version)
      COMPREPLY=(); return ;;
  esac
  if [ "$cmd" = help ]; then
    [ "$COMP_CWORD" -eq 2 ] && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
    return
  fi
  if [ "$cmd" = db ] && [ "$COMP_CWORD" -eq 2 ]; then
    mapfile -t COMPREPLY < <(compgen -W "create update delete load list grant revoke" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_skillmd_flags "$cmd") --help" -- "$cur")
    return
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

complete -o filenames -F _skillmd skillmd
