import Files
import SystemPackage
import TestSupport
import Testing

@testable import MediaPlayerService

/// What a client's call or property change asks of the player, read from its arguments; what is
/// refused there, on the bus thread, with an error.
@Suite("MediaPlayerCall: requests")
struct RequestParsingTests {
    static func method(_ name: String, _ arguments: ListedArguments.Value...) throws(MediaPlayerCallError) -> MediaPlayerRequest? {
        try MediaPlayerCall.method(name).request(arguments: ListedArguments(arguments))
    }

    static func setting(_ property: String, _ argument: ListedArguments.Value) throws(MediaPlayerCallError) -> MediaPlayerRequest? {
        try MediaPlayerCall.settingProperty(property).request(arguments: ListedArguments([argument]))
    }

    @Test("the calls a client can make: every method of both interfaces, and setting the writable properties only")
    func everyCall() {
        let calls = Set(MediaPlayerCall.all)
        #expect(calls.count == MediaPlayerCall.all.count, "a call listed twice")
        for name in ["Raise", "Quit", "Next", "Previous", "Pause", "PlayPause", "Stop", "Play", "Seek", "SetPosition", "OpenUri"] {
            #expect(calls.contains(.method(name)), "\(name)")
        }
        #expect(
            calls.filter { if case .settingProperty = $0 { true } else { false } }
                == Set([.settingProperty("LoopStatus"), .settingProperty("Rate"), .settingProperty("Shuffle")]))
    }

    @Test("the calls without arguments; Raise asks nothing (smfplay cannot bring its terminal forward)")
    func plainCalls() throws {
        let expected: [String: MediaPlayerRequest?] = [
            "Quit": .quit, "Next": .next, "Previous": .previous, "Pause": .pause, "PlayPause": .playPause,
            "Stop": .stop, "Play": .play, "Raise": nil,
        ]
        for (name, request) in expected {
            #expect(try Self.method(name) == request, "\(name)")
        }
    }

    @Test("Seek: an offset in microseconds, forward or back")
    func seek() throws {
        #expect(try Self.method("Seek", .int64(5_000_000)) == .seek(byMicroseconds: 5_000_000))
        #expect(try Self.method("Seek", .int64(-250_000)) == .seek(byMicroseconds: -250_000))
    }

    @Test("SetPosition: the track's number from its id, and the position; a track id not smfplay's is ignored")
    func setPosition() throws {
        #expect(
            try Self.method("SetPosition", .objectPath("/org/smfplay/track/7"), .int64(1_500_000))
                == .setPosition(trackNumber: 7, microseconds: 1_500_000))
        #expect(try Self.method("SetPosition", .objectPath(MPRISObject.noTrack), .int64(0)) == nil)
        #expect(try Self.method("SetPosition", .objectPath("/org/smfplay/track/seven"), .int64(0)) == nil)
    }

    @Test("arguments that cannot be read as the signature says are refused")
    func unreadable() {
        #expect(throws: MediaPlayerCallError.unreadableArguments("no more arguments")) { try Self.method("Seek") }
    }

    @Test("OpenUri: a local MIDI file's URI, its name percent-encoded, opens that file")
    func openUri() throws {
        let folder = try TemporaryFolder()
        let file = FilePath(try folder.create("Bach/Invention No.1 (BWV 772).mid", midiHeader))
        #expect(file.fileURI.contains("%20"))
        #expect(try Self.method("OpenUri", .string(file.fileURI)) == .open(file))
        #expect(try Self.method("OpenUri", .string("file://localhost" + file.string.replacingOccurrences(of: " ", with: "%20"))) == .open(file))
    }

    @Test("OpenUri refuses another scheme or host, a missing file and a file that is not MIDI")
    func openUriRefused() throws {
        let folder = try TemporaryFolder()
        let text = FilePath(try folder.create("notes.mid", Array("not a MIDI file".utf8)))
        let missing = folder.filePath("gone.mid")
        for uri in ["https://example.com/a.mid", "file://server/a.mid", "a.mid"] {
            #expect(throws: MediaPlayerCallError.notAFileURI(uri)) { try Self.method("OpenUri", .string(uri)) }
        }
        #expect(throws: MediaPlayerCallError.missingFile(missing)) { try Self.method("OpenUri", .string(missing.fileURI)) }
        #expect(throws: MediaPlayerCallError.notAMIDIFile(text)) { try Self.method("OpenUri", .string(text.fileURI)) }
    }

    @Test("OpenUri: a song in an archive (its file's path, a slash, its name there) opens; a name the archive has not is missing")
    func openUriInArchive() throws {
        let folder = try TemporaryFolder()
        var zip = ZIPWriter()
        zip.add(ZIPWriter.Member(name: Array("Bach/Invention.mid".utf8), data: midiHeader))
        let archive = FilePath(try folder.create("pack.zip", zip.encode()))
        let member = archive.appending("Bach/Invention.mid")
        #expect(try Self.method("OpenUri", .string(member.fileURI)) == .open(member))
        let gone = archive.appending("Bach/gone.mid")
        #expect(throws: MediaPlayerCallError.missingFile(gone)) { try Self.method("OpenUri", .string(gone.fileURI)) }
    }

    @Test("LoopStatus takes None, Track and Playlist, spelt so")
    func loopStatus() throws {
        for status in MediaPlayerState.LoopStatus.allCases {
            #expect(try Self.setting("LoopStatus", .string(status.rawValue)) == .setLoopStatus(status))
        }
        #expect(throws: MediaPlayerCallError.unknownLoopStatus("track")) { try Self.setting("LoopStatus", .string("track")) }
    }

    @Test("Rate: 0.25 to 4; 0 pauses; anything else is refused")
    func rate() throws {
        #expect(try Self.setting("Rate", .double(0.25)) == .setRate(0.25))
        #expect(try Self.setting("Rate", .double(4)) == .setRate(4))
        #expect(try Self.setting("Rate", .double(1.5)) == .setRate(1.5))
        #expect(try Self.setting("Rate", .double(0)) == .pause)
        for rate in [0.24, 4.01, -1] {
            #expect(throws: MediaPlayerCallError.rateOutOfRange(rate)) { try Self.setting("Rate", .double(rate)) }
        }
    }

    @Test("Shuffle on and off; a read-only property asks nothing")
    func shuffleAndOthers() throws {
        #expect(try Self.setting("Shuffle", .bool(true)) == .setShuffle(true))
        #expect(try Self.setting("Shuffle", .bool(false)) == .setShuffle(false))
        #expect(try Self.setting("Volume", .double(0.5)) == nil)
    }
}
