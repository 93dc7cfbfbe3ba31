import Foundation

/// A Standard MIDI File: its header and its tracks, as written.
public struct MIDIFile: Hashable, Sendable {
    /// The header's format.
    public var format: MIDIFileFormat
    /// The header's division: what a tick means.
    public var timebase: Timebase
    /// The `MTrk` chunks in file order.
    public var tracks: [Track]
    /// An RMID file's title, from the `INAM` entry of its RIFF `INFO` list, as written.
    public var infoTitle: [UInt8]?

    public init(format: MIDIFileFormat, timebase: Timebase, tracks: [Track] = [], infoTitle: [UInt8]? = nil) {
        self.format = format
        self.timebase = timebase
        self.tracks = tracks
        self.infoTitle = infoTitle
    }

    /// The song's title as written: an RMID file's INFO title, else the first track's name (a
    /// format 2 file's tracks are songs of their own, so none is the file's title).
    public var title: [UInt8]? {
        if let infoTitle, !infoTitle.isEmpty { return infoTitle }
        return format == .multipleTracksAsynchronous ? nil : tracks.first?.name
    }

    /// The title as text, read with `decoding`, without the spaces and line breaks around it;
    /// nil when the song has none, or only blanks.
    public func titleText(decoding: TextDecoding) -> String? {
        guard let title else { return nil }
        let text = decoding.string(from: title).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
