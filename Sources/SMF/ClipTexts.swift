/// The texts of a MIDI 2.0 clip's Flex Data, as a MIDI file's meta events say them: a text is one
/// packet, or several (start, continue, end), 12 bytes of UTF-8 each, padded with zeros. The
/// clip's name (its composition's, else the clip's, else the project's) is the first track's
/// name, which smfplay shows as the title; the other names, a copyright, the composer and the
/// rest are texts with what they are in front ("Composer: …"); lyrics are lyrics.
struct ClipTexts {
    /// Texts begun and not yet ended, by status bank and status.
    private var pending: [UInt16: [UInt8]] = [:]
    /// The names that may be the title (metadata statuses 1, 2, 3), the first of each.
    private var names: [UInt8: [UInt8]] = [:]

    private static let labels: [UInt8: String] = [
        0x05: "Composer", 0x06: "Lyricist", 0x07: "Arranger", 0x08: "Publisher", 0x09: "Performer", 0x0A: "Accompanying performer",
        0x0B: "Recorded", 0x0C: "Recorded at",
    ]

    /// What the packet ends, as a meta event: nil while a text goes on, for a name (see
    /// `headings`), and for what a MIDI file has no place for (ruby, languages).
    mutating func take(_ packet: UniversalMIDIPacket) -> MetaEvent? {
        let key = UInt16(packet.byte3) << 8 | UInt16(packet.byte4)
        let chunk = Array((4..<16).lazy.map(packet.byte).prefix { $0 != 0 })
        let text: [UInt8]
        switch packet.words.0 >> 22 & 3 {
        case 0: text = chunk
        case 1:
            pending[key] = chunk
            return nil
        case 2:
            pending[key, default: []] += chunk
            return nil
        default: text = (pending.removeValue(forKey: key) ?? []) + chunk
        }
        switch (packet.byte3, packet.byte4) {
        case (0x01, 0x01...0x03):
            if names[packet.byte4] == nil { names[packet.byte4] = text }
            return nil
        case (0x01, 0x04): return .text(.copyright, text)
        case (0x01, let status):
            guard let label = Self.labels[status] else { return nil }
            return .text(.text, Array("\(label): ".utf8) + text)
        case (0x02, 0x01): return .text(.lyric, text)
        default: return nil
        }
    }

    /// What the first track starts with: its name (the composition's, else the clip's, else the
    /// project's), then the names not taken, labelled.
    var headings: [(MetaEvent.TextKind, [UInt8])] {
        let order: [(status: UInt8, label: String)] = [(0x02, "Composition"), (0x03, "Clip"), (0x01, "Project")]
        let named = order.filter { names[$0.status] != nil }
        guard let title = named.first else { return [] }
        return [(.trackName, names[title.status]!)] + named.dropFirst().map { (.text, Array("\($0.label): ".utf8) + names[$0.status]!) }
    }
}
