import Files
import SystemPackage
import Testing

@testable import MediaPlayerService

/// What clients read: the Player interface's properties as published (status, loop status, rate,
/// position) and the metadata of the song playing.
@Suite("MPRISObject: published values")
struct PublishedValuesTests {
    /// A value as text, comparable: `s:Playing`, `as:[a, b]`, `a{sv}:[key=value, …]` in order.
    static func text(_ value: BusValue?) -> String {
        switch value {
        case nil: "nil"
        case .string(let text): "s:\(text)"
        case .objectPath(let path): "o:\(path)"
        case .boolean(let flag): "b:\(flag)"
        case .double(let number): "d:\(number)"
        case .int64(let number): "x:\(number)"
        case .strings(let texts): "as:\(texts)"
        case .dictionary(let entries): "a{sv}:[" + entries.map { "\($0.key)=\(text($0.value))" }.joined(separator: ", ") + "]"
        }
    }

    static func value(_ property: String, _ state: MediaPlayerState, position: Int64 = 0) -> String {
        text(MPRISObject.value(of: property, state: state, position: position))
    }

    @Test("PlaybackStatus, LoopStatus, Rate, Shuffle and Position as the specification spells them")
    func playerProperties() {
        let states: [(MediaPlayerState.PlaybackStatus, String)] = [(.playing, "s:Playing"), (.paused, "s:Paused"), (.stopped, "s:Stopped")]
        for (status, text) in states {
            #expect(Self.value("PlaybackStatus", MediaPlayerState(status: status)) == text)
        }
        let loops: [(MediaPlayerState.LoopStatus, String)] = [(.none, "s:None"), (.track, "s:Track"), (.playlist, "s:Playlist")]
        for (loop, text) in loops {
            #expect(Self.value("LoopStatus", MediaPlayerState(loopStatus: loop)) == text)
        }
        #expect(Self.value("Rate", MediaPlayerState(rate: 1.5)) == "d:1.5")
        #expect(Self.value("Shuffle", MediaPlayerState(shuffle: true)) == "b:true")
        #expect(Self.value("Position", MediaPlayerState(), position: 2_500_000) == "x:2500000")
        #expect(Self.value("MinimumRate", MediaPlayerState()) == "d:0.25" && Self.value("MaximumRate", MediaPlayerState()) == "d:4.0")
        #expect(Self.value("SupportedUriSchemes", MediaPlayerState()) == "as:[\"file\"]")
        #expect(Self.value("Loudness", MediaPlayerState()) == "nil")
    }

    @Test("metadata: the track's id, length in microseconds, title, URL, folders as album and artist, art")
    func metadata() {
        let track = MediaPlayerTrack(
            number: 3, file: "/music/Satie/Gymnopédies/No 1.mid", title: "Gymnopédie No.1", lengthMicroseconds: 185_250_000,
            album: "Gymnopédies", artist: "Satie", art: "/cache/a b.png")
        #expect(
            Self.text(MPRISObject.metadata(of: track)) == """
                a{sv}:[mpris:trackid=o:/org/smfplay/track/3, mpris:length=x:185250000, xesam:title=s:Gymnopédie No.1, \
                xesam:url=s:file:///music/Satie/Gymnop%C3%A9dies/No%201.mid, xesam:album=s:Gymnopédies, xesam:artist=as:["Satie"], \
                mpris:artUrl=s:file:///cache/a%20b.png]
                """)
        #expect(Self.value("Metadata", MediaPlayerState(track: track)) == Self.text(MPRISObject.metadata(of: track)))
    }

    @Test("metadata of an RMID file: its genre as a list and its date, as xesam has them")
    func metadataOfRMIDFile() {
        let track = MediaPlayerTrack(
            number: 1, file: nil, title: "t", lengthMicroseconds: 1, album: "A", artist: "B", genre: "Rock", contentCreated: "1987")
        #expect(
            Self.text(MPRISObject.metadata(of: track)) == """
                a{sv}:[mpris:trackid=o:/org/smfplay/track/1, mpris:length=x:1, xesam:title=s:t, xesam:album=s:A, xesam:artist=as:["B"], \
                xesam:genre=as:["Rock"], xesam:contentCreated=s:1987]
                """)
    }

    @Test("metadata of a song from standard input: no URL, folders or art; of nothing playing: the NoTrack id alone")
    func metadataWithoutFile() {
        let piped = MediaPlayerTrack(number: 1, file: nil, title: "standard input", lengthMicroseconds: 1_000)
        #expect(
            Self.text(MPRISObject.metadata(of: piped))
                == "a{sv}:[mpris:trackid=o:/org/smfplay/track/1, mpris:length=x:1000, xesam:title=s:standard input]")
        #expect(Self.text(MPRISObject.metadata(of: nil)) == "a{sv}:[mpris:trackid=o:/org/mpris/MediaPlayer2/TrackList/NoTrack]")
    }

    @Test("the properties signalled are those that changed, Position never")
    func changedProperties() {
        let before = MediaPlayerState(status: .playing, positionMicroseconds: 0)
        var after = before
        after.positionMicroseconds = 9_000_000
        #expect(after.changedProperties(since: before).isEmpty)
        after.status = .paused
        after.rate = 2
        after.track = MediaPlayerTrack(number: 1, file: nil, title: "t", lengthMicroseconds: 1)
        after.canGoNext = false
        #expect(after.changedProperties(since: before) == ["PlaybackStatus", "Rate", "Metadata", "CanGoNext"])
    }

    /// An applet's Next button is off on the queue's last song (with the queue not repeated), where
    /// Next does nothing; Previous always does something. The types are those the desktop entry opens.
    @Test("CanGoNext follows the queue; CanGoPrevious is always true; SupportedMimeTypes are the desktop entry's")
    func capabilities() {
        #expect(Self.value("CanGoNext", MediaPlayerState(canGoNext: false)) == "b:false")
        #expect(Self.value("CanGoNext", MediaPlayerState(canGoNext: true)) == "b:true")
        #expect(Self.value("CanGoPrevious", MediaPlayerState(canGoNext: false)) == "b:true")
        #expect(
            Self.value("SupportedMimeTypes", MediaPlayerState())
                == "as:\(["audio/midi", "audio/x-midi", "audio/x-rmid", "audio/x-midi2-clip", "audio/x-mus", "audio/x-xmi", "audio/x-hmp", "audio/x-hmi", "audio/x-recomposer"])"
        )
    }
}
