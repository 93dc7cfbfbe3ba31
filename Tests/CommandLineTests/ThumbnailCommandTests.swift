import Foundation
import SMF
import TestSupport
import Testing

/// `smfplay thumbnail`, run as a file manager runs it, its PNG decoded by a small Python
/// decoder (zlib and struct only), so that nothing of libpng checks libpng's work.
@Suite("smfplay thumbnail")
struct ThumbnailCommandTests {
    /// Three seconds: two beats at 120 bpm (1 s), then two at 60 bpm. Channel 1 plays C4 from
    /// 0 to 1 s, channel 2 C5 from 1 to 2 s, and channel 1 a C3, E4 and a soft G3 from 2 to 3 s.
    /// Keys 48–72, so the roll shows keys 46–74 (a margin of two).
    static let notes = [
        Note(channel: 0, key: 60, velocity: 127, from: 0, to: 960, seconds: 0...1),
        Note(channel: 1, key: 72, velocity: 127, from: 960, to: 1440, seconds: 1...2),
        Note(channel: 0, key: 48, velocity: 127, from: 1440, to: 1920, seconds: 2...3),
        Note(channel: 0, key: 64, velocity: 127, from: 1440, to: 1920, seconds: 2...3),
        Note(channel: 0, key: 55, velocity: 30, from: 1440, to: 1920, seconds: 2...3),
    ]
    static let shownKeys = 46...74
    static let duration = 3.0

    struct Note {
        var channel: UInt8
        var key: UInt8
        var velocity: UInt8
        var from: UInt32
        var to: UInt32
        var seconds: ClosedRange<Double>
    }

    static func song() -> [UInt8] {
        var conductor = Track()
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 500_000)), atTick: 0)
        conductor.append(.meta(.tempo(microsecondsPerQuarterNote: 1_000_000)), atTick: 960)
        conductor.append(.meta(.endOfTrack), atTick: 1920)
        var tracks = [conductor]
        for channel: UInt8 in [0, 1] {
            var events: [(tick: UInt32, message: MIDIMessage)] = []
            for note in notes where note.channel == channel {
                events.append((note.from, .noteOn(channel: channel, note: note.key, velocity: note.velocity)))
                events.append((note.to, .noteOff(channel: channel, note: note.key, velocity: 0)))
            }
            var track = Track()
            for event in events.sorted(by: { $0.tick < $1.tick }) { track.append(event.message, atTick: event.tick) }
            track.append(.meta(.endOfTrack), atTick: 1920)
            tracks.append(track)
        }
        return SMFWriter().encode(MIDIFile(format: .multipleTracksSynchronous, timebase: .musical(ticksPerQuarterNote: 480), tracks: tracks))
    }

    /// The rectangle a note must cover in a `width` × `height` image: time across in seconds,
    /// one band of rows per key, highest key at the top.
    static func rectangle(of note: Note, width: Int, height: Int) -> (columns: ClosedRange<Double>, rows: ClosedRange<Double>) {
        let fromTop = Double(shownKeys.upperBound - Int(note.key))
        let keyHeight = Double(height) / Double(shownKeys.count)
        return (
            note.seconds.lowerBound / duration * Double(width)...note.seconds.upperBound / duration * Double(width),
            fromTop * keyHeight...(fromTop + 1) * keyHeight
        )
    }

    @Test("each note is a bar where its time and key say, in its channel's colour, and nothing else is drawn")
    func notesAtTheirPlace() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        let result = try sandbox.run(["thumbnail", "--size", "320", "song.mid", "song.png"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        let image = try DecodedPNG(path: sandbox.path("song.png"))
        #expect((image.width, image.height) == (320, 240))

        let rectangles = Self.notes.map { Self.rectangle(of: $0, width: 320, height: 240) }
        let centres = rectangles.map {
            image[Int(($0.columns.lowerBound + $0.columns.upperBound) / 2), Int(($0.rows.lowerBound + $0.rows.upperBound) / 2)]
        }
        // Everything a pixel or more away from every note: the background, two shades at most (the keys' rows).
        var background = Set<DecodedPNG.Pixel>()
        for y in 0..<240 {
            for x in 0..<320 {
                let nearNote = rectangles.contains {
                    ($0.columns.lowerBound - 1...$0.columns.upperBound + 1).contains(Double(x))
                        && ($0.rows.lowerBound - 1...$0.rows.upperBound + 1).contains(Double(y))
                }
                if !nearNote { background.insert(image[x, y]) }
            }
        }
        #expect(background.count <= 2, "\(background)")
        for (note, centre) in zip(Self.notes, centres) {
            #expect(!background.contains(centre), "key \(note.key) from \(note.seconds) s is drawn")
        }
        // One colour per channel: the loud notes of channel 1 alike, channel 2's another.
        #expect(centres[0] == centres[2] && centres[0] == centres[3])
        #expect(centres[1] != centres[0])
        // The soft note is the same hue, dimmer.
        #expect(
            centres[4].sum < centres[0].sum && centres[4].red <= centres[0].red && centres[4].green <= centres[0].green
                && centres[4].blue <= centres[0].blue)
        // Time is in seconds, not ticks: C5 starts at 1 s (a third of the way), although
        // tick 960 is half of the song's 1920.
        let c5 = rectangles[1]
        let c5Row = Int((c5.rows.lowerBound + c5.rows.upperBound) / 2)
        #expect(image[Int(0.9 / Self.duration * 320), c5Row] != centres[1])
        #expect(image[Int(1.1 / Self.duration * 320), c5Row] == centres[1])
    }

    @Test(
        "--size sets the longer side; the height is three quarters of it",
        arguments: [
            (["--size", "100"], 100, 75), ([], 256, 192), (["--size", "17"], 17, 13),
        ])
    func size(options: [String], width: Int, height: Int) throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        let result = try sandbox.run(["thumbnail"] + options + ["song.mid", "song.png"])
        #expect(result.succeeded, "\(result)")
        let image = try DecodedPNG(path: sandbox.path("song.png"))
        #expect((image.width, image.height) == (width, height))
    }

    @Test("a size outside 16–4096 is a usage error")
    func badSize() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        let result = try sandbox.run(["thumbnail", "--size", "8", "song.mid", "song.png"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--size must be from 16 to 4096 pixels, not 8"), "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test(
        "a broken or missing file: one line naming it, status 1, and no image nor temporary file",
        arguments: [
            ("broken.mid", Fixtures.truncatedEvent, Fixtures.truncatedEventMessage),
            (
                "notes.mid", Array("not a MIDI file at all".utf8),
                MIDIFileSignature.mismatch
            ),
            ("empty.mid", [], MIDIFileSignature.mismatch),
        ])
    func brokenInput(name: String, bytes: [UInt8], message: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write(name, bytes)
        let result = try sandbox.run(["thumbnail", name, "out.png"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines == ["smfplay: \(name): \(message)"], "\(result)")
        #expect(sandbox.files() == [name])
    }

    @Test("a missing input file is named with the system's reason")
    func missingInput() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["thumbnail", "absent.mid", "out.png"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines == ["smfplay: absent.mid: cannot read: no such file or directory"], "\(result)")
        #expect(sandbox.files() == [])
    }

    @Test("an output that cannot be written is named, and nothing is left behind")
    func unwritableOutput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        let result = try sandbox.run(["thumbnail", "song.mid", "missing/song.png"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("smfplay: missing/song.png: cannot write: "), "\(result)")
        #expect(sandbox.files() == ["song.mid"])
    }

    @Test("the output replaces the file there, whatever its name: GNOME creates an empty .gnome_desktop_thumbnail.XXXXXX")
    func replacesOutput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        try sandbox.write(".gnome_desktop_thumbnail.Q7XK2M", [])
        try sandbox.write("song.png", text: "an old thumbnail")
        for output in [".gnome_desktop_thumbnail.Q7XK2M", "song.png"] {
            let result = try sandbox.run(["thumbnail", "song.mid", output])
            #expect(result.succeeded, "\(result)")
            #expect(try DecodedPNG(path: sandbox.path(output)).width == 256)
        }
        #expect(sandbox.files() == [".gnome_desktop_thumbnail.Q7XK2M", "song.mid", "song.png"])
    }

    @Test("- sends the PNG to standard output: the image written to a file, and no file named -")
    func standardOutput() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        #expect(try sandbox.run(["thumbnail", "song.mid", "file.png"]).succeeded)
        let piped = try ShellPipeline.run("\"$SMFPLAY\" thumbnail song.mid - > piped.png", in: sandbox)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
        #expect(try DecodedPNG(path: sandbox.path("piped.png")).pixels == DecodedPNG(path: sandbox.path("file.png")).pixels)
        #expect(sandbox.files() == ["file.png", "piped.png", "song.mid"])
    }

    @Test("an RMID file gives the same image as the song inside it")
    func rmid() throws {
        let sandbox = try Sandbox()
        let smf = Self.song()
        let data = Array("data".utf8) + littleEndian(UInt32(smf.count)) + smf + (smf.count % 2 == 1 ? [0] : [])
        let riff = Array("RIFF".utf8) + littleEndian(UInt32(4 + data.count)) + Array("RMID".utf8) + data
        try sandbox.write("song.mid", smf)
        try sandbox.write("song.rmi", riff)
        #expect(try sandbox.run(["thumbnail", "song.mid", "mid.png"]).succeeded)
        #expect(try sandbox.run(["thumbnail", "song.rmi", "rmi.png"]).succeeded)
        #expect(try DecodedPNG(path: sandbox.path("rmi.png")).pixels == DecodedPNG(path: sandbox.path("mid.png")).pixels)
    }

    @Test("it works with an empty environment (env -i): no home, no configuration, no SoundFont")
    func emptyEnvironment() throws {
        let sandbox = try Sandbox()
        try sandbox.write("song.mid", Self.song())
        let smfplay = try #require(Sandbox.smfplay, "\(BuiltProduct.notFoundMessage("smfplay"))")
        let result = try Command(
            smfplay, arguments: ["thumbnail", "song.mid", "song.png"], environment: [:],
            workingDirectory: URL(fileURLWithPath: sandbox.work), timeLimit: 60
        ).run()
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try DecodedPNG(path: sandbox.path("song.png")).width == 256)
    }

    @Test("--help explains the command")
    func help() throws {
        let result = try Sandbox().run(["thumbnail", "--help"])
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("USAGE: smfplay thumbnail <input> <output> [--size <pixels>]"), "\(result)")
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// A PNG file decoded by `python3` with `zlib` and `struct` alone: chunk CRCs checked, IHDR
/// first and IEND last, every filter type undone. Only 8-bit RGB, which is what smfplay writes;
/// anything else fails the test.
struct DecodedPNG {
    struct Pixel: Hashable, CustomStringConvertible {
        var red: UInt8
        var green: UInt8
        var blue: UInt8
        var sum: Int { Int(red) + Int(green) + Int(blue) }
        var description: String { "(\(red), \(green), \(blue))" }
    }

    let width: Int
    let height: Int
    let pixels: [UInt8]

    subscript(x: Int, y: Int) -> Pixel {
        let offset = (y * width + x) * 3
        return Pixel(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
    }

    init(path: String) throws {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "python3 is missing")
        let result = try Command(python, arguments: ["-c", Self.decoder, path], timeLimit: 60).run()
        try #require(result.succeeded, "the PNG does not decode: \(result)")
        let fields = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        width = try #require(fields["width"] as? Int)
        height = try #require(fields["height"] as? Int)
        let hex = Array(try #require(fields["pixels"] as? String).utf8)
        pixels = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        try #require(pixels.count == width * height * 3)
    }

    static let decoder = #"""
        import json, struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        if data[:8] != b'\x89PNG\r\n\x1a\n':
            sys.exit('no PNG signature')
        chunks, pos = [], 8
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
            if zlib.crc32(kind + body) != crc:
                sys.exit('bad CRC in chunk %r' % kind)
            chunks.append((kind, body))
            pos += 12 + length
        if chunks[0][0] != b'IHDR' or chunks[-1][0] != b'IEND':
            sys.exit('IHDR must come first and IEND last')
        width, height, depth, colour, compression, filtering, interlace = struct.unpack('>IIBBBBB', chunks[0][1])
        if (depth, colour, compression, filtering, interlace) != (8, 2, 0, 0, 0):
            sys.exit('not 8-bit RGB without interlace: %r' % ((depth, colour, compression, filtering, interlace),))
        raw = zlib.decompress(b''.join(body for kind, body in chunks if kind == b'IDAT'))
        stride = width * 3
        if len(raw) != height * (stride + 1):
            sys.exit('%d bytes of image data, %d expected' % (len(raw), height * (stride + 1)))
        pixels, previous = bytearray(), bytearray(stride)
        for y in range(height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            for i in range(stride):
                a = line[i - 3] if i >= 3 else 0
                b = previous[i]
                c = previous[i - 3] if i >= 3 else 0
                if kind == 1:
                    line[i] = (line[i] + a) & 255
                elif kind == 2:
                    line[i] = (line[i] + b) & 255
                elif kind == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                elif kind != 0:
                    sys.exit('unknown filter type %d' % kind)
            pixels += line
            previous = line
        print(json.dumps({'width': width, 'height': height, 'pixels': pixels.hex()}))
        """#
}
