# Ray on the nodes of a SLURM allocation: the functions recipes/slurm.sbatch calls.
#
# Sourced, not run:  source recipes/slurm-ray.sh
#
#   node_ip NODE                 the IP address NODE is reached at
#   start_head NODE PORT         the Ray head on NODE (its GCS on PORT), in the background
#   wait_for_head ADDRESS        until the head at ADDRESS (ip:port) answers
#   start_worker NODE ADDRESS    a Ray worker node on NODE joining the head at ADDRESS, in the background
#   wait_for_cpus ADDRESS COUNT  until the cluster has COUNT CPUs (every worker node has joined)
#   stop                         stop every Ray node started here (workers first, then the head)
#
# Every Ray node is one `srun` job step (`ray start --block` lives as long as its node), so
# SLURM accounts for it and ends it with the job. `stop` ends exactly the steps started
# here: SIGTERM to each `srun`, which passes it on to `ray start --block`, which stops that
# node's processes. (`ray stop` is not used: it stops every Ray process of the user on a
# machine, other jobs' too.)
#
# Settings (environment variables, all optional):
#   SLURM_CPUS_PER_TASK       CPUs Ray offers on each node (set by `#SBATCH --cpus-per-task`; default 1)
#   SWEEP_RAY_TEMP_DIR        Ray's session folder on each node (default /tmp/ray-$SLURM_JOB_ID: two
#                             jobs sharing a node never share a Ray)
#   SWEEP_RAY_WAIT_SECONDS    how long wait_for_head and wait_for_cpus wait before giving up (default 300)
#   SWEEP_RAY_LOGS            the folder of each node's `ray start` output, ray-<node>.log (default
#                             ray-logs-$SLURM_JOB_ID in the current folder): the job's own log keeps
#                             sweep's lines, not Ray's, also when a node is lost
#   SWEEP_RAY_START_OPTIONS   more options for every `ray start` (e.g. --object-store-memory=...)

SWEEP_RAY_STEPS=()  # process ids of the srun steps started here, head first
SWEEP_RAY_STEP_LOGS=()  # the file each step writes to

_sweep_ray_log() {
    local folder=${SWEEP_RAY_LOGS:-ray-logs-${SLURM_JOB_ID:-$$}}
    mkdir -p "$folder" && echo "$folder/ray-$1.log"
}

_sweep_ray_cpus() { echo "${SLURM_CPUS_PER_TASK:-1}"; }
_sweep_ray_temp_dir() { echo "${SWEEP_RAY_TEMP_DIR:-/tmp/ray-${SLURM_JOB_ID:-$$}}"; }

# One job step on one node, with the whole of its CPUs (srun does not inherit --cpus-per-task
# from sbatch since Slurm 22.05, so it is passed on): the words before the command, in STEP.
_sweep_step() {
    STEP=(srun --nodes=1 --ntasks=1 --cpus-per-task="$(_sweep_ray_cpus)" --nodelist="$1")
}

node_ip() {
    local addresses STEP
    _sweep_step "$1"
    addresses=$("${STEP[@]}" hostname --ip-address) || return 1
    echo "${addresses%% *}"  # the first, when a node has several
}

# The step is started as a simple command in the background, so that $! is srun itself (the
# process stop signals), not a subshell around it.
start_head() {
    local node=$1 port=$2 ip log STEP
    ip=$(node_ip "$node")
    log=$(_sweep_ray_log "$node")
    _sweep_step "$node"
    # shellcheck disable=SC2086  # SWEEP_RAY_START_OPTIONS is a list of options
    "${STEP[@]}" ray start --head --node-ip-address="$ip" --port="$port" --num-cpus="$(_sweep_ray_cpus)" \
        --temp-dir="$(_sweep_ray_temp_dir)" --include-dashboard=false --disable-usage-stats \
        ${SWEEP_RAY_START_OPTIONS:-} --block >"$log" 2>&1 &
    SWEEP_RAY_STEPS+=("$!")
    SWEEP_RAY_STEP_LOGS+=("$log")
}

start_worker() {
    local node=$1 address=$2 log STEP
    log=$(_sweep_ray_log "$node")
    _sweep_step "$node"
    # shellcheck disable=SC2086
    "${STEP[@]}" ray start --address="$address" --num-cpus="$(_sweep_ray_cpus)" \
        --temp-dir="$(_sweep_ray_temp_dir)" --disable-usage-stats ${SWEEP_RAY_START_OPTIONS:-} \
        --block >"$log" 2>&1 &
    SWEEP_RAY_STEPS+=("$!")
    SWEEP_RAY_STEP_LOGS+=("$log")
}

# Fails (one line) when a node started here has exited, or when the wait is over.
_sweep_ray_still_waiting() {
    local deadline=$1 what=$2 i
    for i in "${!SWEEP_RAY_STEPS[@]}"; do
        if ! kill -0 "${SWEEP_RAY_STEPS[i]}" 2>/dev/null; then
            echo "slurm-ray: a Ray node exited while waiting for $what (see ${SWEEP_RAY_STEP_LOGS[i]:-its output})" >&2
            return 1
        fi
    done
    if ((SECONDS >= deadline)); then
        echo "slurm-ray: gave up waiting for $what after ${SWEEP_RAY_WAIT_SECONDS:-300} s" >&2
        return 1
    fi
}

wait_for_head() {
    local address=$1 deadline=$((SECONDS + ${SWEEP_RAY_WAIT_SECONDS:-300}))
    until ray health-check --address "$address" >/dev/null 2>&1; do
        _sweep_ray_still_waiting "$deadline" "the Ray head at $address" || return 1
        sleep 1
    done
}

# The CPUs of the cluster at ADDRESS (the "0.0/64.0 CPU" line of `ray status`); 0 if it does not answer.
cluster_cpus() {
    { ray status --address "$1" 2>/dev/null || true; } | awk '
        $2 == "CPU" && split($1, used, "/") == 2 { printf "%d\n", used[2]; found = 1; exit }
        END { if (!found) print 0 }'
}

wait_for_cpus() {
    local address=$1 wanted=$2 have deadline=$((SECONDS + ${SWEEP_RAY_WAIT_SECONDS:-300}))
    while have=$(cluster_cpus "$address"); ((have < wanted)); do
        _sweep_ray_still_waiting "$deadline" "$wanted CPUs at $address (it has $have)" || return 1
        sleep 2
    done
    echo "slurm-ray: the Ray cluster at $address has $have CPUs" >&2
}

stop() {
    local i
    for ((i = ${#SWEEP_RAY_STEPS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${SWEEP_RAY_STEPS[i]}" 2>/dev/null || true
        wait "${SWEEP_RAY_STEPS[i]}" 2>/dev/null || true
    done
    SWEEP_RAY_STEPS=()
    SWEEP_RAY_STEP_LOGS=()
}
