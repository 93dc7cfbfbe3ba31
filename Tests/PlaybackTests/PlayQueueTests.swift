import SystemPackage
import Testing

@testable import Playback

struct PlayQueueTests {
    let files = ["a.mid", "b.mid", "c.mid"]

    @Test func playsInOrderAndRunsOut() {
        var queue = PlayQueue(files: files.map { FilePath($0) })
        var played: [QueueItem] = []
        repeat { played.append(queue.current!) } while queue.advanceAfterEnd()
        #expect(played == files.map { .file(FilePath($0)) })
        #expect(queue.current == nil)
    }

    @Test func shufflingKeepsTheFilePlayingAndUnshufflingGoesOnFromIt() {
        let items = (0..<20).map { FilePath("\($0).mid") }
        var queue = PlayQueue(files: items)
        queue.next()
        queue.next()
        #expect(!queue.isShuffled)
        queue.setShuffled(true, seed: 7)
        #expect(queue.isShuffled && queue.current == .file("2.mid") && queue.place == 0)
        #expect(queue.order.sorted() == Array(items.indices) && queue.order != Array(items.indices))
        queue.next()
        let next = queue.current
        queue.setShuffled(false, seed: 0)
        #expect(!queue.isShuffled && queue.order == Array(items.indices) && queue.current == next)
        var single = PlayQueue(files: ["only.mid"])
        single.setShuffled(true, seed: 1)
        #expect(single.isShuffled && single.current == .file("only.mid"), "a queue of one is shuffled as asked, its order unchanged")
    }

    @Test func repeatsOneOrAll() {
        var one = PlayQueue(files: files.map { FilePath($0) }, repeatMode: .one)
        one.advanceAfterEnd()
        #expect(one.current == .file("a.mid"))
        let skipped = one.next()
        #expect(skipped && one.current == .file("b.mid"))

        var all = PlayQueue(files: files.map { FilePath($0) }, repeatMode: .all)
        for _ in 0..<3 { all.advanceAfterEnd() }
        #expect(all.current == .file("a.mid"))
    }

    @Test func previousGoesBackEarlyAndRestartsLater() {
        var queue = PlayQueue(files: files.map { FilePath($0) })
        queue.next()
        let late = queue.previous(elapsedSeconds: 10)
        #expect(!late && queue.current == .file("b.mid"))
        let early = queue.previous(elapsedSeconds: 1)
        #expect(early && queue.current == .file("a.mid"))
        let beforeFirst = queue.previous(elapsedSeconds: 1)
        #expect(!beforeFirst && queue.current == .file("a.mid"))
    }

    @Test func shufflesReproduciblyAndCompletely() {
        let many = (1...20).map { "\($0).mid" }
        let first = PlayQueue(files: many.map { FilePath($0) }, shuffleSeed: 42)
        #expect(first.order == PlayQueue(files: many.map { FilePath($0) }, shuffleSeed: 42).order)
        #expect(first.order != Array(many.indices))
        #expect(first.order.sorted() == Array(many.indices))
    }

    @Test func appendsAndRemovesWithoutLosingThePlace() {
        var queue = PlayQueue(files: files.map { FilePath($0) })
        queue.next()
        queue.append([.file("d.mid")])
        queue.removeCurrent()
        #expect(queue.files == ["a.mid", "c.mid", "d.mid"])
        #expect(queue.current == .file("c.mid"))
        queue.next()
        #expect(queue.current == .file("d.mid"))
        let pastEnd = queue.next()
        #expect(!pastEnd && queue.current == nil)
        queue.append([.file("e.mid")])
        #expect(queue.current == .file("e.mid"))
    }

    @Test("a queue holding the song from standard input: its files are none, its items named as messages name them")
    func standardInputIsAnItemWithoutAFile() {
        let queue = PlayQueue(items: [.file("a.mid"), .standardInput])
        #expect(queue.files == nil)
        #expect(PlayQueue(files: ["a.mid", "-"]).files == ["a.mid", "-"], "a file named - is a file")
        #expect(queue.items.map(\.displayName) == ["a.mid", "standard input"])
        #expect(queue.items.map(\.file) == ["a.mid", nil])
    }
}
