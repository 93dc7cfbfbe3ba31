import Files
import SMF
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// smfplay-parse-bench: makes the benchmark file and times smfplay's reader on it.
// Kept free of dependencies (no argument parser): see bench/parse.sh.

let usage = """
    usage: smfplay-parse-bench generate OUT.mid [--notes N] [--tracks N] [--seed N]
           smfplay-parse-bench time FILE [--repeat N]
           smfplay-parse-bench baseline
           smfplay-parse-bench shards [--files N] [--shards N] [--added-percent P] [--seed N]

      generate  writes the deterministic benchmark file (default 2000000 notes, 16 tracks)
      time      reads FILE and computes its duration N times (default 10); prints one line:
                best_ms= median_ms= first_ms= runs= duration_s= notes= events= tracks= warnings= bytes=
      baseline  does nothing: the process's own memory, to subtract from a parse's peak
      shards    splits made-up files (log-normal sizes) into shards (default 1000000 into 1000),
                then again with P% more (default 1); prints one line of key=value pairs:
                how even the shards are and how many files moved (see bench/shards.sh)
    """

func fail(_ message: String) -> Never {
    var line = "smfplay-parse-bench: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(2)
}

/// The value of `--name VALUE` in `arguments`, removing both.
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count else { fail("\(name) needs a value\n\(usage)") }
    let value = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
    return value
}

func integer<T: FixedWidthInteger>(_ name: String, in arguments: inout [String], as type: T.Type) -> T? {
    guard let text = option(name, in: &arguments) else { return nil }
    guard let value = T(text.replacingUnderscores), value > 0 else { fail("\(name): not a positive number: \(text)") }
    return value
}

extension String {
    var replacingUnderscores: String { String(filter { $0 != "_" }) }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage) }
arguments.removeFirst()

switch command {
case "generate":
    var file = BenchmarkFile()
    if let notes = integer("--notes", in: &arguments, as: Int.self) { file.notes = notes }
    if let tracks = integer("--tracks", in: &arguments, as: Int.self) { file.tracks = tracks }
    if let seed = integer("--seed", in: &arguments, as: UInt64.self) { file.seed = seed }
    guard arguments.count == 1 else { fail(usage) }
    guard file.tracks >= 2, file.tracks <= 0xFFFF else { fail("--tracks: between 2 and 65535") }
    let bytes = file.encoded()
    do {
        try AtomicWrite.write(bytes, to: FilePath(arguments[0]))
    } catch {
        fail("\(error)")
    }
    print("wrote \(arguments[0]): bytes=\(bytes.count) notes=\(file.notes) tracks=\(file.tracks)")

case "time":
    let repeats = integer("--repeat", in: &arguments, as: Int.self) ?? 10
    guard arguments.count == 1 else { fail(usage) }
    do {
        print(try ParseTiming(path: arguments[0], repeats: repeats).run().line)
    } catch {
        fail("\(error)")
    }

case "baseline":
    print("baseline")

case "shards":
    var simulation = ShardSimulation()
    if let files = integer("--files", in: &arguments, as: Int.self) { simulation.files = files }
    if let shards = integer("--shards", in: &arguments, as: Int.self) { simulation.shards = shards }
    if let seed = integer("--seed", in: &arguments, as: UInt64.self) { simulation.seed = seed }
    if let added = option("--added-percent", in: &arguments) {
        guard let percent = Double(added), percent >= 0, percent <= 100 else { fail("--added-percent: from 0 to 100, not \(added)") }
        simulation.addedPercent = percent
    }
    guard arguments.isEmpty else { fail(usage) }
    print(simulation.run())

case "-h", "--help", "help":
    print(usage)

default:
    fail("unknown command \(command)\n\(usage)")
}
