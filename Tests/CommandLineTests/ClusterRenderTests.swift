import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `render --shard`, `--manifest`, `--write-manifest`, `--report` and `smfplay report`: what the
/// tasks of a cluster job run, here one after another on this machine.
@Suite("smfplay render: clusters")
struct ClusterRenderTests {
    /// Twelve short songs of different lengths (so different sizes) in two folders; returns their
    /// outputs, relative to the output folder.
    static func writeCollection(_ sandbox: Sandbox) throws -> [String] {
        var outputs: [String] = []
        for index in 0..<12 {
            let folder = index % 2 == 0 ? "even" : "odd"
            try sandbox.write("in/\(folder)/song \(index).mid", Fixtures.song(beats: 1 + index % 5))
            outputs.append("\(folder)/song \(index).wav")
        }
        return outputs.sorted()
    }

    static let render = ["render", "in", "-o", "out", "--sample-rate", "8000", "--jobs", "1"] + Fixtures.fast

    /// The JSON objects of a report file.
    static func reportLines(_ sandbox: Sandbox, _ name: String) throws -> [[String: Any]] {
        let text = String(decoding: try sandbox.contents(name), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test(
        "--shard I/N: four shards render every file once into the tree an unsharded render makes, each with its own report; smfplay report merges them"
    )
    func shardsCoverTheCollection() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        let outputs = try Self.writeCollection(sandbox)
        var rendered: [String] = []
        for index in 0..<4 {
            let result = try sandbox.run(Self.render + ["--shard", "\(index)/4", "--report", "report.jsonl"])
            #expect(result.succeeded, "\(result)")
            #expect(result.stdoutLines.last?.contains("in other shards") == true, "\(result)")
            let lines = try Self.reportLines(sandbox, "report.shard-\(index)-of-4.jsonl")
            #expect(!lines.isEmpty, "shard \(index) has no files")
            for line in lines {
                #expect(line["status"] as? String == "rendered" && line["shard"] as? String == "\(index)/4", "\(line)")
                #expect(
                    line["seconds"] is Double && line["songSeconds"] is Double && line["renderSeconds"] is Double && line["peakDecibels"] is Double,
                    "\(line)")
                rendered.append(String((try #require(line["output"] as? String)).dropFirst("out/".count)))
            }
        }
        #expect(rendered.sorted() == outputs, "each file exactly once")
        #expect(sandbox.files(under: "out") == outputs)
        #expect(!sandbox.exists("report.jsonl"))

        // A rerun of a shard renders nothing and says so in its report.
        let again = try sandbox.run(Self.render + ["--shard", "2/4", "--report", "report.jsonl"])
        #expect(again.succeeded && again.stdout.hasPrefix("rendered 0 files"), "\(again)")
        let rerun = try Self.reportLines(sandbox, "report.shard-2-of-4.jsonl")
        #expect(rerun.filter { $0["status"] as? String == "skipped" }.count * 2 == rerun.count, "\(rerun)")

        let files = (0..<4).map { "report.shard-\($0)-of-4.jsonl" }
        let merged = try sandbox.run(["report"] + files)
        #expect(merged.succeeded, "\(merged)")
        let skipped = rerun.count / 2
        #expect(merged.stdoutLines.first == "12 inputs: \(12 - skipped) rendered, \(skipped) up to date, 0 failed", "\(merged)")
        #expect(merged.stdout.contains("shards: 0/4, 1/4, 2/4, 3/4"), "\(merged)")
        #expect(merged.stdout.contains("audio: 0.00 hours") && merged.stdout.contains("real time per file"), "\(merged)")
    }

    @Test("the shards are the same whoever lists the files: a folder, a manifest written from it, a manifest in another order")
    func manifestAndFolderAgree() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        _ = try Self.writeCollection(sandbox)
        let written = try sandbox.run(["render", "in", "--write-manifest", "in/files.txt"])
        #expect(written.succeeded && written.stdout == "in/files.txt: 12 files\n", "\(written)")
        let manifest = String(decoding: try sandbox.contents("in/files.txt"), as: UTF8.self)
        #expect(manifest.split(separator: "\n").count == 12 && manifest.hasPrefix("even/song 0.mid\n"), "\(manifest)")
        try sandbox.write("in/reversed.txt", text: manifest.split(separator: "\n").reversed().joined(separator: "\n") + "\n")

        func shard(_ source: [String]) throws -> [String] {
            let result = try sandbox.run(
                ["render"] + source + ["-o", "out", "--sample-rate", "8000", "--shard", "1/3", "--json", "--force"] + Fixtures.fast)
            #expect(result.succeeded, "\(result)")
            return try result.stdoutLines.map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(object["output"] as? String)
            }.sorted()
        }
        let fromFolder = try shard(["in"])
        #expect(!fromFolder.isEmpty)
        #expect(try shard(["--manifest", "in/files.txt"]) == fromFolder)
        #expect(try shard(["--manifest", "in/reversed.txt"]) == fromFolder)
    }

    @Test("--manifest - reads the list from standard input, its paths from the current folder; one that cannot be read is named standard input")
    func manifestFromStandardInput() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song())
        let piped = try ShellPipeline.run("printf 'in/a.mid\\n' | \"$SMFPLAY\" render --manifest - -o out \(PipeCommandTests.fast)", in: sandbox)
        #expect(piped.status == 0, "\(piped)")
        #expect(sandbox.exists("out/in/a.wav"), "\(sandbox.files(under: "out"))")
        let unreadable = try ShellPipeline.run("\"$SMFPLAY\" render --manifest - -o out \(PipeCommandTests.fast) < in", in: sandbox)
        #expect(unreadable.status == 1, "\(unreadable)")
        #expect(unreadable.stderrLines.first?.hasPrefix("smfplay: standard input: cannot read the manifest: ") == true, "\(unreadable)")
        let empty = try ShellPipeline.run("\"$SMFPLAY\" render --manifest - -o out \(PipeCommandTests.fast) < /dev/null", in: sandbox)
        #expect(empty.status == 1, "\(empty)")
        #expect(empty.stderrLines == ["smfplay: standard input: the manifest lists no files: nothing to render"], "\(empty)")
    }

    @Test("a manifest entry that is missing fails in one shard's report, the rest render; smfplay report lists it and exits 1")
    func missingEntry() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song())
        try sandbox.write("in/list.txt", text: "a.mid\ngone.mid\n")
        var statuses: [String] = []
        for index in 0..<2 {
            _ = try sandbox.run(["render", "--manifest", "in/list.txt", "-o", "out", "--shard", "\(index)/2", "--report", "r.jsonl"] + Fixtures.fast)
            statuses += try Self.reportLines(sandbox, "r.shard-\(index)-of-2.jsonl").map {
                "\($0["input"] as? String ?? "?") \($0["status"] as? String ?? "?")"
            }
        }
        #expect(statuses.sorted() == ["in/a.mid rendered", "in/gone.mid failed"], "\(statuses)")
        let merged = try sandbox.run(["report", "r.shard-0-of-2.jsonl", "r.shard-1-of-2.jsonl"])
        #expect(merged.status == 1, "\(merged)")
        #expect(merged.stdout.contains("failed:\n  in/gone.mid: no such file or directory"), "\(merged)")
    }

    @Test(
        "--shard auto reads Slurm's and Kubernetes' variables; without them, one line and status 64",
        arguments: [
            (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0"], "shard-1-of-3"),
            (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "6"], "shard-1-of-3"),
            (["JOB_COMPLETION_INDEX": "2", "SMFPLAY_SHARD_COUNT": "3"], "shard-2-of-3"),
        ])
    func shardFromEnvironment(variables: [String: String], reportName: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song())
        var environment = sandbox.environment
        environment.merge(variables) { $1 }
        let smfplay = try #require(Sandbox.smfplay)
        let result = try Command(
            smfplay, arguments: ["render", "in", "-o", "out", "--shard", "auto", "--report", "r.jsonl"] + Fixtures.fast,
            environment: environment, workingDirectory: URL(fileURLWithPath: sandbox.work)
        ).run()
        #expect(result.succeeded, "\(result)")
        #expect(sandbox.exists("r.\(reportName).jsonl"), "\(sandbox.files())")
    }

    @Test(
        "--shard auto refuses a missing scheduler, a list array and a missing count, in one line each",
        arguments: [
            ([:], "not a Slurm array task (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)"),
            (
                ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0"],
                "submit the array as one range (sbatch --array=0-2)"
            ),
            (["JOB_COMPLETION_INDEX": "0"], "JOB_COMPLETION_INDEX is set but not SMFPLAY_SHARD_COUNT"),
        ])
    func shardAutoRefused(variables: [String: String], message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("in/a.mid", Fixtures.song())
        var environment = sandbox.environment.filter { !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX" }
        environment.merge(variables) { $1 }
        let smfplay = try #require(Sandbox.smfplay)
        let result = try Command(
            smfplay, arguments: ["render", "in", "-o", "out", "--shard", "auto"] + Fixtures.fast,
            environment: environment, workingDirectory: URL(fileURLWithPath: sandbox.work)
        ).run()
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains(message), "\(result)")
        #expect(!sandbox.exists("out/a.wav"))
    }

    @Test("--shard with a bad value is a usage error")
    func badShard() throws {
        let sandbox = try Sandbox()
        for value in ["4/4", "1", "-1/2", "a/b"] {
            let result = try sandbox.run(["render", "in", "-o", "out", "--shard=\(value)"])
            #expect(
                result.status == 64 && result.stderr.contains("is invalid for '--shard <I/N|auto>': give I/N, with 0 <= I < N, or auto"), "\(result)")
        }
    }

    @Test("a render killed with SIGKILL leaves only a hidden temporary file; the rerun renders the song whole and ignores it")
    func killedRender() throws {
        try Fixtures.requireSoundFont()
        let sandbox = try Sandbox()
        try sandbox.write("in/long.mid", Fixtures.sparseSong(seconds: 600))
        let smfplay = try #require(Sandbox.smfplay)
        let process = Process()
        process.executableURL = smfplay
        process.arguments = ["render", "in", "-o", "out", "--jobs", "1", "--quiet", "--sample-rate", "8000"] + Fixtures.fast
        process.environment = sandbox.environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.work)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while sandbox.files(under: "out").isEmpty, Date() < deadline, process.isRunning { usleep(20_000) }
        usleep(200_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = sandbox.files(under: "out")
        #expect(left.count == 1 && left[0].hasPrefix(".long.wav.part-"), "\(left)")

        let rerun = try sandbox.run(["render", "in", "-o", "out", "--jobs", "1", "--sample-rate", "8000"] + Fixtures.fast)
        #expect(rerun.succeeded && rerun.stdoutLines.last?.hasPrefix("rendered 1 file in") == true, "\(rerun)")
        let audio = try AudioFacts(path: sandbox.path("out/long.wav"))
        #expect(audio.frameCount >= 8_000 * 599, "\(audio)")
        #expect(sandbox.files(under: "out").filter { !$0.hasPrefix(".") } == ["long.wav"])
    }
}
