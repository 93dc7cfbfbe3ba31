import Foundation
import TestSupport
import Testing

@testable import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// A key's sequence split in time, as a slow terminal or an SSH link writes it: paced by the
/// wall clock, so this runs with the real-time suites, alone (`make test`), where no other test
/// competes for the cores and stretches the pause past the reader's wait.
@Suite struct KeySequenceTimingTests {
    @Test("the rest of a sequence a quarter of the reader's wait after its ESC still makes one key")
    func aSequenceSplitInTimeIsOneKey() throws {
        let keys = try KeyReaderTests.KeyPipe()
        keys.write("\u{1B}")
        let writeEnd = keys.writeEnd
        // A thread of its own: the tests that run meanwhile may hold every thread of the shared pools.
        Thread.detachNewThread {
            usleep(useconds_t(KeyReader.sequenceWaitMilliseconds) * 1000 / 4)
            KeyReaderTests.KeyPipe.write("[B", to: writeEnd)
        }
        #expect(keys.keys() == [.down])
    }
}
