/// Which part of a collection one task of a cluster job renders: shard `index` of `count`,
/// counted from 0 (as Slurm array tasks and Kubernetes completion indexes are).
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    let index: Int
    let count: Int

    /// `I/N`, as `--shard` takes it; nil unless 0 ≤ I < N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The shard the scheduler gave this task, from its environment:
    ///
    /// - a Slurm job array: `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, over the step
    ///   (`SLURM_ARRAY_TASK_STEP`, 1 when unset), of `SLURM_ARRAY_TASK_COUNT` tasks (or as many as
    ///   `SLURM_ARRAY_TASK_MAX` makes); an array that is not one range (`--array=0,3,7`) is refused,
    ///   as its task numbers would leave shards out;
    /// - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` of `SMFPLAY_SHARD_COUNT` (Kubernetes
    ///   does not tell a pod the Job's completions: the manifest sets this to the same number).
    public static func fromEnvironment(_ environment: [String: String]) throws(ShardEnvironmentError) -> Shard {
        func number(_ name: String) throws(ShardEnvironmentError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), value >= 0 else { throw .notANumber(name, text) }
            return value
        }
        if let task = try number("SLURM_ARRAY_TASK_ID") {
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            let count: Int
            if let given = try number("SLURM_ARRAY_TASK_COUNT") {
                count = given
            } else if let maximum = try number("SLURM_ARRAY_TASK_MAX") {
                count = (maximum - minimum) / step + 1
            } else {
                throw .missingCount("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX")
            }
            let offset = task - minimum
            guard offset >= 0, offset % step == 0, offset / step < count else { throw .notARange(task: task, count: count) }
            return Shard(index: offset / step, count: count)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            guard let count = try number("SMFPLAY_SHARD_COUNT") else { throw .missingCount("JOB_COMPLETION_INDEX", "SMFPLAY_SHARD_COUNT") }
            guard index < count else { throw .indexTooLarge(index: index, count: count) }
            return Shard(index: index, count: count)
        }
        throw .noScheduler
    }

    public var description: String { "\(index)/\(count)" }
}
