import Library
import SystemPackage
import TestSupport
import Testing

@testable import RenderJobs

/// Which files each task of a cluster job renders (`render --shard I/N`): every file by one shard,
/// the split weighed by the files' sizes and keyed by their paths under the folder given, so that
/// every task, whatever machine or listing it has, works out the same split.
@Suite("RenderPlan: shards")
struct ShardChoiceTests {
    @Test("four shards render every file once; each counts the files the others render")
    func everyFileInOneShard() throws {
        let collection = try RenderCollection()
        let names = try collection.writeTwelveSongs()
        var rendered: [String] = []
        for index in 0..<4 {
            let plan = try collection.plan(["in"], shard: Shard(index: index, count: 4))
            #expect(plan.problems.isEmpty && plan.skipped.isEmpty)
            #expect(plan.otherShards == names.count - plan.jobs.count)
            rendered += plan.jobs.map { collection.relative($0.input) }
        }
        #expect(rendered.sorted() == names.map { "in/" + $0 }.sorted())
    }

    @Test("the split is BalancedSplit's of the paths under the folder given, weighed by size")
    func keyedByRelativePathWeighedBySize() throws {
        let collection = try RenderCollection()
        let names = try collection.writeTwelveSongs()
        let sizes = names.map { try? collection.path("in/" + $0).stat().size }.map { Int($0 ?? 0) }
        let split = BalancedSplit(keys: names.map { Array($0.utf8) }, weights: sizes, shardCount: 3)
        for index in 0..<3 {
            let plan = try collection.plan(["in"], shard: Shard(index: index, count: 3))
            let expected = names.indices.filter { split.shards[$0] == index }.map { "in/" + names[$0] }
            #expect(plan.jobs.map { collection.relative($0.input) }.sorted() == expected.sorted(), "shard \(index)")
        }
    }

    @Test("the same shards wherever the collection is, and whoever lists it: a folder, a manifest, the manifest reversed")
    func sameWhereverListed() throws {
        let here = try RenderCollection()
        let elsewhere = try RenderCollection()
        let names = try here.writeTwelveSongs()
        _ = try elsewhere.writeTwelveSongs()
        let listed = names.joined(separator: "\n")
        let reversed = names.reversed().joined(separator: "\n")
        for index in 0..<3 {
            let shard = Shard(index: index, count: 3)
            func outputs(_ collection: RenderCollection, _ plan: RenderPlan) -> [String] {
                plan.jobs.map { collection.relative($0.output) }.sorted()
            }
            let fromFolder = outputs(here, try here.plan(["in"], shard: shard))
            #expect(outputs(elsewhere, try elsewhere.plan(["in"], shard: shard)) == fromFolder)
            #expect(
                outputs(here, try here.plan(manifest: InputManifest(bytes: Array(listed.utf8), folder: here.path("in")), shard: shard)) == fromFolder)
            #expect(
                outputs(here, try here.plan(manifest: InputManifest(bytes: Array(reversed.utf8), folder: here.path("in")), shard: shard))
                    == fromFolder)
        }
    }

    @Test("a manifest entry that is missing weighs nothing and fails in the one shard that has it")
    func missingEntryFailsInOneShard() throws {
        let collection = try RenderCollection()
        try collection.write("in/a.mid")
        let manifest = InputManifest(bytes: Array("a.mid\ngone.mid\n".utf8), folder: collection.path("in"))
        var problems: [String] = []
        var rendered: [String] = []
        for index in 0..<2 {
            let plan = try collection.plan(manifest: manifest, shard: Shard(index: index, count: 2))
            problems += plan.problems.map(\.description)
            rendered += plan.jobs.map { collection.relative($0.input) }
        }
        #expect(problems == [collection.path("in/gone.mid").string + ": no such file or directory"])
        #expect(rendered == ["in/a.mid"])
    }

    @Test("one file given alone is rendered by exactly one shard")
    func oneFileInOneShard() throws {
        let collection = try RenderCollection()
        try collection.write("song.mid")
        var plans: [RenderPlan] = []
        for index in 0..<3 {
            plans.append(
                try RenderPlan(
                    inputs: [collection.path("song.mid")], manifest: nil, output: nil, outputIsFolder: false, format: .wav,
                    force: true, shard: Shard(index: index, count: 3)))
        }
        #expect(plans.map(\.jobs.count).sorted() == [0, 0, 1])
        #expect(plans.map(\.otherShards).sorted() == [0, 1, 1])
    }

    @Test("two files that would make one output: every shard keeps the same one and reports the other")
    func collisionsDecidedBeforeTheSplit() throws {
        let collection = try RenderCollection()
        try collection.write("in/a.mid")
        try collection.write("in/a.kar")
        var rendered: [String] = []
        for index in 0..<2 {
            let plan = try collection.plan(["in"], shard: Shard(index: index, count: 2))
            #expect(plan.problems.map { $0.input.map(collection.relative) } == ["in/a.mid"], "shard \(index)")
            rendered += plan.jobs.map { collection.relative($0.input) }
        }
        #expect(rendered == ["in/a.kar"])
    }
}
