import Foundation
import TestSupport
import Testing

/// The whole cluster path on a real (one-node) Slurm cluster: `sbatch --array=0-3` of
/// `smfplay render --manifest … --shard auto --report …`, as Examples/cluster/render.sbatch does.
@Suite("smfplay render on Slurm")
struct SlurmClusterTests {
    @Test(
        "a job array of four tasks renders every file exactly once; the reports are complete and smfplay report agrees",
        .enabled(if: LocalSlurmCluster.canRun, "the local Slurm cluster needs root (slurmd runs jobs as their users)"),
        .timeLimit(.minutes(3)))
    func jobArray() throws {
        try Fixtures.requireSoundFont()
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let cluster = try LocalSlurmCluster()
        let work = cluster.folder + "/work"
        let sandbox = try Sandbox()
        var inputs: [String] = []
        for index in 0..<10 {
            let name = "\(["Bach", "Satie"][index % 2])/song \(index).mid"
            try sandbox.write(work + "/in/" + name, Fixtures.song(beats: 1 + index % 4))
            inputs.append(name)
        }
        let manifest = try sandbox.run(["render", work + "/in", "--write-manifest", work + "/in/files.txt"])
        #expect(manifest.succeeded, "\(manifest)")

        // The task's environment is the script's own (--export=NONE): a home and configuration
        // of the test's, nothing of the user's.
        try sandbox.write(
            work + "/render.sbatch",
            text: """
                #!/bin/sh
                export HOME=\(work)/home XDG_CONFIG_HOME=\(work)/config XDG_DATA_HOME=\(work)/data XDG_CACHE_HOME=\(work)/cache
                exec \(smfplay.path) render --manifest \(work)/in/files.txt -o \(work)/out --shard auto --report \(work)/report.jsonl \\
                    --jobs 1 --sample-rate 8000 --soundfont \(Fixtures.soundFont) --tail 0 --quiet

                """)
        let submitted = try cluster.run(
            "/usr/bin/sbatch",
            [
                "--wait", "--array=0-3", "--export=NONE", "-D", work,
                "-o", work + "/task-%a.log", work + "/render.sbatch",
            ], timeLimit: 100)
        let taskLogs = (0..<4).map { (try? String(contentsOfFile: work + "/task-\($0).log", encoding: .utf8)) ?? "" }
        #expect(submitted.succeeded, "\(submitted)\n\(taskLogs)\n\(cluster.logs)")

        let outputs = inputs.map { work + "/out/" + $0.replacingOccurrences(of: ".mid", with: ".wav") }
        #expect(sandbox.files(under: work + "/out") == inputs.map { $0.replacingOccurrences(of: ".mid", with: ".wav") }.sorted())
        var reported: [String: Int] = [:]
        for shard in 0..<4 {
            let path = work + "/report.shard-\(shard)-of-4.jsonl"
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(path): \(line)")
                #expect(object["status"] as? String == "rendered" && object["shard"] as? String == "\(shard)/4", "\(line)")
                #expect(object["seconds"] is Double && object["renderSeconds"] is Double, "\(line)")
                reported[try #require(object["output"] as? String), default: 0] += 1
            }
        }
        #expect(reported == Dictionary(uniqueKeysWithValues: outputs.map { ($0, 1) }), "each output reported once: \(reported)\n\(taskLogs)")

        let summary = try sandbox.run(["report"] + (0..<4).map { work + "/report.shard-\($0)-of-4.jsonl" })
        #expect(summary.succeeded, "\(summary)")
        #expect(summary.stdoutLines.first == "10 inputs: 10 rendered, 0 up to date, 0 failed", "\(summary)")
        #expect(summary.stdout.contains("shards: 0/4, 1/4, 2/4, 3/4"), "\(summary)")
    }
}
