/// Why `--shard auto` found no shard in the environment: one line each, naming the variables.
public enum ShardEnvironmentError: Error, Hashable, CustomStringConvertible {
    /// Neither a Slurm array task nor a Kubernetes Indexed Job.
    case noScheduler
    case notANumber(String, String)
    /// The task's number is set, the number of tasks is not.
    case missingCount(String, String)
    /// The Slurm array is a list, not a range: its task numbers do not count the shards.
    case notARange(task: Int, count: Int)
    case indexTooLarge(index: Int, count: Int)

    public var description: String {
        switch self {
        case .noScheduler:
            "--shard auto: not a Slurm array task (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX); give --shard I/N"
        case .notANumber(let name, let value):
            "--shard auto: \(name) is \"\(value)\", not a number"
        case .missingCount(let index, let count):
            "--shard auto: \(index) is set but not \(count), which says how many shards there are"
        case .notARange(let task, let count):
            "--shard auto: array task \(task) is not one of \(count) in a range; submit the array as one range (sbatch --array=0-\(count - 1))"
        case .indexTooLarge(let index, let count):
            "--shard auto: JOB_COMPLETION_INDEX \(index) is not below SMFPLAY_SHARD_COUNT \(count); set SMFPLAY_SHARD_COUNT to the Job's completions"
        }
    }
}
