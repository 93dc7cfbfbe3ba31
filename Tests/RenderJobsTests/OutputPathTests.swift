import Foundation
import Library
import SystemPackage
import TestSupport
import Testing

@testable import RenderJobs

/// Where each output of a render goes: folders mirrored under `-o`, a manifest's relative entries
/// mirrored and its other entries by name, files given one by one by name, one file beside itself
/// or where `-o` says; and what is left alone or refused.
@Suite("RenderPlan: outputs")
struct OutputPathTests {
    /// The plan's jobs as "input → output", relative to the collection's folder.
    static func pairs(_ plan: RenderPlan, _ collection: RenderCollection) -> [String] {
        plan.jobs.map { "\(collection.relative($0.input)) → \(collection.relative($0.output))" }
    }

    @Test("a folder's tree is mirrored under -o with the format's extension, its folders made")
    func folderMirrored() throws {
        let collection = try RenderCollection()
        try collection.write("in/x.mid")
        try collection.write("in/A/B/y.kar")
        let plan = try collection.plan(["in"], format: .flac)
        #expect(Self.pairs(plan, collection) == ["in/A/B/y.kar → out/A/B/y.flac", "in/x.mid → out/x.flac"])
        #expect(collection.path("out/A/B").isFolder)
    }

    @Test("a manifest: relative entries mirror their folders; absolute ones and ones with .. take their name alone")
    func manifestEntries() throws {
        let collection = try RenderCollection()
        try collection.write("list/sub/a.mid")
        try collection.write("elsewhere/b.mid")
        try collection.write("c.mid")
        let lines = "sub/a.mid\n\(collection.path("elsewhere/b.mid").string)\n../c.mid\n"
        let plan = try collection.plan(manifest: InputManifest(bytes: Array(lines.utf8), folder: collection.path("list")))
        #expect(Self.pairs(plan, collection) == ["list/sub/a.mid → out/sub/a.wav", "elsewhere/b.mid → out/b.wav", "list/../c.mid → out/c.wav"])
    }

    @Test("files given one by one go straight into -o, each under its own name")
    func severalFilesByName() throws {
        let collection = try RenderCollection()
        try collection.write("one/a.mid")
        try collection.write("two/b.mid")
        let plan = try collection.plan(["one/a.mid", "two/b.mid"], format: .ogg)
        #expect(Self.pairs(plan, collection) == ["one/a.mid → out/a.ogg", "two/b.mid → out/b.ogg"])
    }

    @Test("one file: beside itself without -o, into -o when it is a folder, else at -o")
    func oneFile() throws {
        let collection = try RenderCollection()
        try collection.write("in/song.mid")
        func output(_ given: String?, isFolder: Bool) throws -> [String] {
            let plan = try RenderPlan(
                inputs: [collection.path("in/song.mid")], manifest: nil, output: given.map(collection.path),
                outputIsFolder: isFolder, format: .aiff, force: true, shard: nil)
            return plan.jobs.map { collection.relative($0.output) }
        }
        #expect(try output(nil, isFolder: false) == ["in/song.aiff"])
        #expect(try output("made/", isFolder: true) == ["made/song.aiff"])
        #expect(collection.path("made").isFolder)
        #expect(try output("made", isFolder: false) == ["made/song.aiff"], "an existing folder")
        #expect(try output("named.aiff", isFolder: false) == ["named.aiff"])
    }

    @Test("an output that is the MIDI file itself is refused, and so is a folder without -o")
    func refused() throws {
        let collection = try RenderCollection()
        try collection.write("in/song.mid")
        #expect(throws: RenderPlan.Failure.self) {
            try RenderPlan(
                inputs: [collection.path("in/song.mid")], manifest: nil, output: collection.path("in/song.mid"), outputIsFolder: false,
                format: .wav, force: true, shard: nil)
        }
        do {
            _ = try RenderPlan(
                inputs: [collection.path("in")], manifest: nil, output: nil, outputIsFolder: false, format: .wav, force: true, shard: nil)
            Issue.record("a folder rendered without -o")
        } catch {
            #expect(error.description == "-o FOLDER is needed to render a folder, a playlist or several files")
        }
    }

    @Test("two files that would make one output: the first listed is rendered, the other reported by name")
    func collision() throws {
        let collection = try RenderCollection()
        try collection.write("one/song.mid")
        try collection.write("two/song.mid")
        let plan = try collection.plan(["one/song.mid", "two/song.mid"])
        #expect(Self.pairs(plan, collection) == ["one/song.mid → out/song.wav"])
        let (one, two, out) = (collection.path("one/song.mid").string, collection.path("two/song.mid").string, collection.path("out/song.wav").string)
        #expect(plan.problems.map(\.description) == ["\(two): not rendered: its output, \(out), is \(one)'s; rename one of them"])
    }

    @Test("the same file given twice, by the same path or through a link, is one job and no collision")
    func sameFileTwice() throws {
        let collection = try RenderCollection()
        try collection.write("one/song.mid")
        try FileManager.default.createSymbolicLink(atPath: collection.path("link").string, withDestinationPath: collection.path("one").string)
        let plan = try collection.plan(["one/song.mid", "one/song.mid", "link/song.mid"])
        #expect(Self.pairs(plan, collection) == ["one/song.mid → out/song.wav"])
        #expect(plan.problems.isEmpty, "\(plan.problems)")
    }

    @Test("a folder where an output would go is not an output up to date: the job is planned, and its render says it cannot write")
    func folderInPlaceOfAnOutput() throws {
        let collection = try RenderCollection()
        try collection.write("in/a.mid")
        try FileManager.default.createDirectory(atPath: collection.path("out/a.wav").string, withIntermediateDirectories: true)
        let plan = try collection.plan(["in"])
        #expect(plan.skipped.isEmpty && plan.jobs.map(\.output) == [collection.path("out/a.wav")])
    }

    @Test("an output newer than its MIDI file is left alone, unless forced; an older one is redone")
    func upToDateSkipped() throws {
        let collection = try RenderCollection()
        let input = try collection.write("in/a.mid")
        let output = try collection.write("out/a.wav")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: input.string)
        #expect(try collection.plan(["in"], force: false).skipped.map(\.output) == [output])
        #expect(try collection.plan(["in"], force: false).jobs.isEmpty)
        #expect(try collection.plan(["in"], force: true).jobs.map(\.output) == [output])
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)], ofItemAtPath: output.string)
        #expect(try collection.plan(["in"], force: false).jobs.map(\.output) == [output])
    }

    /// The file `out/A` is in the way of the outputs' folder `folder`: above it (out/A/B), or
    /// where it must be itself (out/A, which `mkdir -p` took for made).
    @Test(
        "a folder of outputs that cannot be made (a file is in the way, above it or in its place) is that file's problem, found before rendering; the rest go on",
        arguments: [("in/A/B/x.mid", "out/A/B"), ("in/A/x.mid", "out/A")])
    func folderInTheWay(input: String, folder: String) throws {
        let collection = try RenderCollection()
        try collection.write(input)
        try collection.write("in/y.mid")
        try collection.write("out/A")
        let plan = try collection.plan(["in"])
        #expect(Self.pairs(plan, collection) == ["in/y.mid → out/y.wav"])
        #expect(
            plan.problems.map(\.description) == [
                "\(collection.path(folder).string): cannot create folder: \(collection.path("out/A").string) is a file, not a folder"
            ])
    }
}
