import Fuzzing
import SystemPackage
import Testing

/// Every committed input of every fuzz target goes through the target's code, as `make fuzz`
/// feeds it: the seed corpora (`Tests/Fuzz/Corpus/<target>`), and the inputs runs found that
/// broke a promise or crashed once (`Tests/Fuzz/Regressions/<target>`), which must not again.
struct FuzzCorpusTests {
    static let folder = FilePath(#filePath).removingLastComponent().removingLastComponent().appending("Fuzz")

    @Test(arguments: FuzzTarget.allCases)
    func committedInputsKeepTheirPromises(_ target: FuzzTarget) throws {
        let seeds = FuzzDriver.inputs(in: Self.folder.appending("Corpus/\(target.rawValue)"))
        #expect(seeds.count >= 3, "a seed corpus of \(seeds.count) files for \(target.rawValue)")
        let regressions = Self.folder.appending("Regressions/\(target.rawValue)")
        for file in seeds + (regressions.kind == .directory ? FuzzDriver.inputs(in: regressions) : []) {
            do throws(FuzzFailure) {
                try target.test(try FuzzDriver.input(file))
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
    }
}
