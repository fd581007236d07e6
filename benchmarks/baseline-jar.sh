# Sourced by benchmarks/run and benchmarks/run-scripts: with -Dbench.baseline=<git revision> among the arguments,
# builds the component's jars at that revision in a throwaway worktree (the engine's too, from the revision on where
# it is a module of its own) and sets BASELINE_ARGS to the JVM options that name them (-Dbench.baseline=<commit>
# -Dbench.baselineJar=<jar>[:<jar>]); empty without one.
BASELINE_ARGS=()
baseline=""
for arg in "$@"; do
  case "$arg" in -Dbench.baseline=*) baseline="${arg#-Dbench.baseline=}" ;; esac
done
if [[ -n "$baseline" ]]; then
  rev=$(git rev-parse --short "$baseline^{commit}")
  src=benchmarks/target/baseline-src
  git worktree remove --force "$src" 2>/dev/null || rm -rf "$src"
  git worktree prune
  git worktree add --detach "$src" "$rev"
  # package, not install: the baseline has this build's version, and would take its place in ~/.m2; without tests
  # (no test-jar), so the one jar in each module's target is its main artifact
  (cd "$src" && mvn -B -q -o -Dmaven.test.skip=true -pl camel-reliable-redis -am package)
  jars=""
  for module in reliable-redis-queue camel-reliable-redis; do
    if [[ -d "$src/$module" ]]; then
      jar="$PWD/benchmarks/target/$module-$rev.jar"
      cp "$src/$module/target/$module"-*.jar "$jar"
      jars="${jars:+$jars:}$jar"
    fi
  done
  git worktree remove --force "$src"
  # the commit, not a name that moves, labels the runs (of a property given twice, the JVM keeps the last)
  BASELINE_ARGS=("-Dbench.baseline=$rev" "-Dbench.baselineJar=$jars")
fi
