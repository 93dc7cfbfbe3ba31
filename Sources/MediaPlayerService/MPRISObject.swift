import Files
import Library
import SystemPackage

/// The object smfplay serves at `/org/mpris/MediaPlayer2` (MPRIS 2.2): its two interfaces'
/// members, the values of their properties, and what each call and property change asks of the
/// player. Pure: the bus connection does the talking.
enum MPRISObject {
    static let path = "/org/mpris/MediaPlayer2"
    static let busName = "org.mpris.MediaPlayer2.smfplay"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// The types Config/smfplay.desktop opens (InstallTests checks both lists).
    static let mimeTypes = [
        "audio/midi", "audio/x-midi", "audio/x-rmid", "audio/x-midi2-clip", "audio/x-mus", "audio/x-xmi", "audio/x-hmp", "audio/x-hmi",
        "audio/x-recomposer",
    ]
    /// What Metadata holds while nothing plays, as the specification names it.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    static let rootMembers: [BusInterfaceTable.Member] = [
        .method(name: "Raise", arguments: "", argumentNames: [], result: ""),
        .method(name: "Quit", arguments: "", argumentNames: [], result: ""),
        .property(name: "CanQuit", signature: "b", changes: .never, writable: false),
        .property(name: "CanRaise", signature: "b", changes: .never, writable: false),
        .property(name: "HasTrackList", signature: "b", changes: .never, writable: false),
        .property(name: "Identity", signature: "s", changes: .never, writable: false),
        .property(name: "DesktopEntry", signature: "s", changes: .never, writable: false),
        .property(name: "SupportedUriSchemes", signature: "as", changes: .never, writable: false),
        .property(name: "SupportedMimeTypes", signature: "as", changes: .never, writable: false),
    ]

    static let playerMembers: [BusInterfaceTable.Member] = [
        .method(name: "Next", arguments: "", argumentNames: [], result: ""),
        .method(name: "Previous", arguments: "", argumentNames: [], result: ""),
        .method(name: "Pause", arguments: "", argumentNames: [], result: ""),
        .method(name: "PlayPause", arguments: "", argumentNames: [], result: ""),
        .method(name: "Stop", arguments: "", argumentNames: [], result: ""),
        .method(name: "Play", arguments: "", argumentNames: [], result: ""),
        .method(name: "Seek", arguments: "x", argumentNames: ["Offset"], result: ""),
        .method(name: "SetPosition", arguments: "ox", argumentNames: ["TrackId", "Position"], result: ""),
        .method(name: "OpenUri", arguments: "s", argumentNames: ["Uri"], result: ""),
        .signal(name: "Seeked", signature: "x", argumentNames: ["Position"]),
        .property(name: "PlaybackStatus", signature: "s", changes: .signalled, writable: false),
        .property(name: "LoopStatus", signature: "s", changes: .signalled, writable: true),
        .property(name: "Rate", signature: "d", changes: .signalled, writable: true),
        // The queue's order is shuffled (or not) when it is made; the player cannot change it.
        .property(name: "Shuffle", signature: "b", changes: .signalled, writable: true),
        .property(name: "Metadata", signature: "a{sv}", changes: .signalled, writable: false),
        // smfplay has no volume of its own: the desktop's mixer sets the stream's.
        .property(name: "Volume", signature: "d", changes: .never, writable: false),
        .property(name: "Position", signature: "x", changes: .unsignalled, writable: false),
        .property(name: "MinimumRate", signature: "d", changes: .never, writable: false),
        .property(name: "MaximumRate", signature: "d", changes: .never, writable: false),
        .property(name: "CanGoNext", signature: "b", changes: .signalled, writable: false),
        .property(name: "CanGoPrevious", signature: "b", changes: .never, writable: false),
        .property(name: "CanPlay", signature: "b", changes: .never, writable: false),
        .property(name: "CanPause", signature: "b", changes: .never, writable: false),
        .property(name: "CanSeek", signature: "b", changes: .never, writable: false),
        .property(name: "CanControl", signature: "b", changes: .never, writable: false),
    ]

    /// A property's value; `position` is the Position heard now.
    static func value(of property: String, state: MediaPlayerState, position: Int64) -> BusValue? {
        switch property {
        case "CanQuit": .boolean(true)
        case "CanRaise", "HasTrackList": .boolean(false)
        case "Identity", "DesktopEntry": .string("smfplay")
        case "SupportedUriSchemes": .strings(["file"])
        case "SupportedMimeTypes": .strings(mimeTypes)
        case "PlaybackStatus": .string(state.status.rawValue)
        case "LoopStatus": .string(state.loopStatus.rawValue)
        case "Rate": .double(state.rate)
        case "Shuffle": .boolean(state.shuffle)
        case "Metadata": metadata(of: state.track)
        case "Volume": .double(1)
        case "Position": .int64(position)
        case "MinimumRate": .double(MediaPlayerState.rateRange.lowerBound)
        case "MaximumRate": .double(MediaPlayerState.rateRange.upperBound)
        case "CanGoNext": .boolean(state.canGoNext)
        // Previous always does something: the song before, or this one from its start.
        case "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl": .boolean(true)
        default: nil
        }
    }

    static func metadata(of track: MediaPlayerTrack?) -> BusValue {
        guard let track else { return .dictionary([("mpris:trackid", .objectPath(noTrack))]) }
        var entries: [(key: String, value: BusValue)] = [
            ("mpris:trackid", .objectPath(track.objectPath)),
            ("mpris:length", .int64(track.lengthMicroseconds)),
            ("xesam:title", .string(track.title)),
        ]
        if let file = track.file { entries.append(("xesam:url", .string(file.fileURI))) }
        if let album = track.album { entries.append(("xesam:album", .string(album))) }
        if let artist = track.artist { entries.append(("xesam:artist", .strings([artist]))) }
        if let genre = track.genre { entries.append(("xesam:genre", .strings([genre]))) }
        if let created = track.contentCreated { entries.append(("xesam:contentCreated", .string(created))) }
        if let art = track.art { entries.append(("mpris:artUrl", .string(art.fileURI))) }
        return .dictionary(entries)
    }

    /// What a method call asks for: nil for nothing (Raise: smfplay lives in a terminal it cannot
    /// bring forward).
    static func request(forMethod method: String, arguments: some CallArguments) throws(MediaPlayerCallError) -> MediaPlayerRequest? {
        switch method {
        case "Quit": return .quit
        case "Next": return .next
        case "Previous": return .previous
        case "Pause": return .pause
        case "PlayPause": return .playPause
        case "Stop": return .stop
        case "Play": return .play
        case "Seek": return .seek(byMicroseconds: try arguments.int64())
        case "SetPosition":
            let track = try arguments.objectPath()
            let position = try arguments.int64()
            // A track id that is not one of smfplay's is stale by definition: ignored, as the specification asks.
            return MediaPlayerTrack.number(inObjectPath: track).map { .setPosition(trackNumber: $0, microseconds: position) }
        case "OpenUri": return .open(try openableFile(uri: try arguments.string()))
        default: return nil
        }
    }

    /// What setting a property asks for.
    static func request(settingProperty property: String, arguments: some CallArguments) throws(MediaPlayerCallError) -> MediaPlayerRequest? {
        switch property {
        case "LoopStatus":
            let text = try arguments.string()
            guard let status = MediaPlayerState.LoopStatus(rawValue: text) else { throw .unknownLoopStatus(text) }
            return .setLoopStatus(status)
        case "Shuffle":
            return .setShuffle(try arguments.bool())
        case "Rate":
            let rate = try arguments.double()
            // The specification: a rate of 0 pauses.
            if rate == 0 { return .pause }
            guard MediaPlayerState.rateRange.contains(rate) else { throw .rateOutOfRange(rate) }
            return .setRate(rate)
        default: return nil
        }
    }

    /// The MIDI file a `file://` URI names; checked here, on the bus thread, so that the caller
    /// hears at once what is wrong with it.
    static func openableFile(uri: String) throws(MediaPlayerCallError) -> FilePath {
        guard let path = FilePath(fileURI: uri) else { throw .notAFileURI(uri) }
        guard FileStamp(ofFileAt: path) != nil else { throw .missingFile(path) }
        // By content, as `smfplay import` takes files: the player reads nothing else.
        guard MIDIFileDetector.hasMIDIContent(at: path) else { throw .notAMIDIFile(path) }
        return path
    }
}
