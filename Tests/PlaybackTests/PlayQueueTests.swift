import SystemPackage
import Testing
@testable import Playback

struct PlayQueueTests {
    let files = ["a.mid", "b.mid", "c.mid"]

    @Test func playsInOrderAndRunsOut() {
        var queue = PlayQueue(items: (files).map { FilePath($0) })
        var played: [FilePath] = []
        repeat { played.append(queue.current!) } while queue.advanceAfterEnd()
        #expect(played == files.map { FilePath($0) })
        #expect(queue.current == nil)
    }

    @Test func shufflingKeepsTheFilePlayingAndUnshufflingGoesOnFromIt() {
        let items = (0..<20).map { FilePath("\($0).mid") }
        var queue = PlayQueue(items: items)
        queue.next()
        queue.next()
        #expect(!queue.isShuffled)
        queue.setShuffled(true, seed: 7)
        #expect(queue.isShuffled && queue.current == "2.mid" && queue.place == 0)
        #expect(queue.order.sorted() == Array(items.indices) && queue.order != Array(items.indices))
        queue.next()
        let next = queue.current
        queue.setShuffled(false, seed: 0)
        #expect(!queue.isShuffled && queue.order == Array(items.indices) && queue.current == next)
        var single = PlayQueue(items: [FilePath("only.mid")])
        single.setShuffled(true, seed: 1)
        #expect(single.isShuffled && single.current == "only.mid", "a queue of one is shuffled as asked, its order unchanged")
    }

    @Test func repeatsOneOrAll() {
        var one = PlayQueue(items: (files).map { FilePath($0) }, repeatMode: .one)
        one.advanceAfterEnd()
        #expect(one.current == "a.mid")
        let skipped = one.next()
        #expect(skipped && one.current == "b.mid")

        var all = PlayQueue(items: (files).map { FilePath($0) }, repeatMode: .all)
        for _ in 0..<3 { all.advanceAfterEnd() }
        #expect(all.current == "a.mid")
    }

    @Test func previousGoesBackEarlyAndRestartsLater() {
        var queue = PlayQueue(items: (files).map { FilePath($0) })
        queue.next()
        let late = queue.previous(elapsedSeconds: 10)
        #expect(!late && queue.current == "b.mid")
        let early = queue.previous(elapsedSeconds: 1)
        #expect(early && queue.current == "a.mid")
        let beforeFirst = queue.previous(elapsedSeconds: 1)
        #expect(!beforeFirst && queue.current == "a.mid")
    }

    @Test func shufflesReproduciblyAndCompletely() {
        let many = (1...20).map { "\($0).mid" }
        let first = PlayQueue(items: (many).map { FilePath($0) }, shuffleSeed: 42)
        #expect(first.order == PlayQueue(items: (many).map { FilePath($0) }, shuffleSeed: 42).order)
        #expect(first.order != Array(many.indices))
        #expect(first.order.sorted() == Array(many.indices))
    }

    @Test func appendsAndRemovesWithoutLosingThePlace() {
        var queue = PlayQueue(items: (files).map { FilePath($0) })
        queue.next()
        queue.append(["d.mid"])
        queue.removeCurrent()
        #expect(queue.items == ["a.mid", "c.mid", "d.mid"])
        #expect(queue.current == "c.mid")
        queue.next()
        #expect(queue.current == "d.mid")
        let pastEnd = queue.next()
        #expect(!pastEnd && queue.current == nil)
        queue.append(["e.mid"])
        #expect(queue.current == "e.mid")
    }
}
