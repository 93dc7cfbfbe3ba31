import Files
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif
#if FUZZING
    import CLibFuzzer
#endif

/// The `main` of every fuzz executable. Built for fuzzing (`make fuzz`: `-sanitize=fuzzer` and
/// `-D FUZZING`), it hands the command line to libFuzzer, which feeds the target inputs; built as
/// the rest of smfplay is, it feeds the target the files named on the command line, or every file
/// in the folders named, once each: how the committed corpora and the inputs a run found are
/// played again through the same code (`FuzzCorpusTests`, or by hand).
///
/// SwiftPM gives an executable its own `main` (its top-level code, under another name the linker
/// makes `main`), which takes the place of libFuzzer's: so this one calls libFuzzer's driver itself.
public enum FuzzDriver {
    public static func run(_ target: FuzzTarget) -> Never {
        #if FUZZING
            fuzzed = target
            var count = CommandLine.argc
            var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&count, &arguments, testOneInput))
        #else
            let paths = CommandLine.arguments.dropFirst().map { FilePath($0) }
            guard !paths.isEmpty else {
                print("usage: \(CommandLine.arguments[0]) FILE_OR_FOLDER... (built with make fuzz, the libFuzzer options)")
                exit(64)
            }
            var failed = 0
            for file in paths.flatMap(inputs(in:)) {
                do throws(FuzzFailure) {
                    try target.test(try input(file))
                } catch {
                    print("\(file): \(error)")
                    failed += 1
                }
            }
            exit(failed == 0 ? 0 : 1)
        #endif
    }

    /// The files to replay for a path given: itself, or the files in a folder, in name order.
    public static func inputs(in path: FilePath) -> [FilePath] {
        guard path.kind == .directory else { return [path] }
        return (path.entryNames() ?? []).map { path.appending($0) }.sorted { $0.string < $1.string }
    }

    /// A file's bytes; an unreadable one is a failure (a corpus file that is not there tests nothing).
    public static func input(_ file: FilePath) throws(FuzzFailure) -> [UInt8] {
        do {
            // Far above libFuzzer's largest input, which it keeps in memory too.
            return try SmallFile.read(file, limit: 1 << 26)
        } catch {
            throw .unreadableInput(error.description)
        }
    }
}

#if FUZZING
    /// The target of this process, set before libFuzzer starts; it calls back on the same thread.
    nonisolated(unsafe) private var fuzzed = FuzzTarget.smfReader

    /// What libFuzzer calls with each input. A broken promise stops the process, as a crash does,
    /// so that libFuzzer keeps the input.
    @_cdecl("LLVMFuzzerTestOneInput")
    func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do throws(FuzzFailure) {
            try fuzzed.test(bytes)
        } catch {
            fatalError("\(fuzzed.rawValue): \(error)")
        }
        return 0
    }
#endif
