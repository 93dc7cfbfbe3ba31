import Testing

@testable import RenderJobs

/// `--shard I/N` and `--shard auto`: the shard a task renders, from the command line or from
/// what Slurm or Kubernetes tell it.
@Suite("Shard")
struct ShardTests {
    @Test(
        "I/N with 0 ≤ I < N, nothing else",
        arguments: [
            ("0/1", "0/1"), ("3/4", "3/4"), ("4/4", nil), ("-1/2", nil), ("1", nil), ("a/b", nil),
            ("1/0", nil), ("1/2/3", nil), ("/2", nil),
        ])
    func parsing(text: String, shard: String?) {
        #expect(Shard(parsing: text)?.description == shard)
    }

    @Test(
        "Slurm's array task, counted from its minimum by its step, of its count or up to its maximum",
        arguments: [
            (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"], "1/3"),
            (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "6"], "1/3"),
            (["SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "16", "SLURM_ARRAY_TASK_STEP": "2"], "2/4"),
            (["JOB_COMPLETION_INDEX": "2", "SMFPLAY_SHARD_COUNT": "3"], "2/3"),
        ])
    func fromScheduler(environment: [String: String], shard: String) throws {
        #expect(try Shard.fromEnvironment(environment).description == shard)
    }

    @Test(
        "what does not make a shard is refused, saying which variable",
        arguments: [
            ([:], ShardEnvironmentError.noScheduler),
            (["SLURM_ARRAY_TASK_ID": "x"], .notANumber("SLURM_ARRAY_TASK_ID", "x")),
            (["SLURM_ARRAY_TASK_ID": "1"], .missingCount("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX")),
            (["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3"], .notARange(task: 7, count: 3)),
            (
                ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_STEP": "2"],
                .notARange(task: 3, count: 4)
            ),
            (["JOB_COMPLETION_INDEX": "0"], .missingCount("JOB_COMPLETION_INDEX", "SMFPLAY_SHARD_COUNT")),
            (["JOB_COMPLETION_INDEX": "3", "SMFPLAY_SHARD_COUNT": "3"], .indexTooLarge(index: 3, count: 3)),
        ])
    func refused(environment: [String: String], error: ShardEnvironmentError) {
        #expect(throws: error) { try Shard.fromEnvironment(environment) }
    }
}
