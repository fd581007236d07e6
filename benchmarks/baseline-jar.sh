# Sourced by benchmarks/run and benchmarks/run-scripts: with -Dbench.baseline=<git revision> among the arguments,
# builds the component's jar at that revision in a throwaway worktree and sets BASELINE_ARGS to the JVM options that
# name it (-Dbench.baseline=<commit> -Dbench.baselineJar=<jar>); empty without one.
BASELINE_ARGS=()
baseline=""
for arg in "$@"; do
  case "$arg" in -Dbench.baseline=*) baseline="${arg#-Dbench.baseline=}" ;; esac
done
if [[ -n "$baseline" ]]; then
  rev=$(git rev-parse --short "$baseline^{commit}")
  src=benchmarks/target/baseline-src
  jar="$PWD/benchmarks/target/camel-reliable-redis-$rev.jar"
  git worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
  git worktree prune
  git worktree add --detach "$src" "$rev"
  # package, not install: the baseline has this build's version, and would take its place in ~/.m2; without tests
  # (no test-jar), so the one jar in its target is the component's
  (cd "$src" && mvn -B -q -o -Dmaven.test.skip=true -pl camel-reliable-redis -am package)
  cp "$src"/camel-reliable-redis/target/camel-reliable-redis-*.jar "$jar"
  git worktree remove --force "$src"
  # the commit, not a name that moves, labels the runs (of a property given twice, the JVM keeps the last)
  BASELINE_ARGS=("-Dbench.baseline=$rev" "-Dbench.baselineJar=$jar")
fi
