import Thumbnails

/// A piano keyboard drawn on a terminal, with the keys being played lit in their channel's colour.
///
/// Each white key is two columns wide. The top row holds the black keys, each on the column
/// between its two white neighbours (the right half of the one below it), as on a real
/// keyboard: none between E and F, or B and C. The bottom row is the white keys alone, and a row
/// of labels names each C with its octave (`C4` is middle C, key 60, so key 0 is `C-1`).
///
/// A lit key takes its lowest channel's colour and a `●`, so that it reads without colour too.
/// The keys shown are all 128 when they fit, else the whole octaves the song plays, else the
/// part of those around the song's middle that fits, with `<` or `>` at an edge past which the
/// song has notes (lit when one of them sounds).
struct PianoKeyboard: Hashable {
    /// Rows drawn: the top row, the bottom row and the labels.
    static let rowCount = 3
    static let whiteKeyWidth = 2
    static let allKeys = 0...127
    /// The keys shown for a song with no note: the two octaves around middle C.
    static let emptySongKeys = 48...71

    static let litCharacter: Character = "●"
    /// The terminal's 256-colour palette: white keys light grey, their edges mid grey, black keys near black.
    static let whiteKeyColour: UInt8 = 254
    static let edgeColour: UInt8 = 244
    static let blackKeyColour: UInt8 = 236
    static let litCharacterColour: UInt8 = 16

    /// The keys shown, from a white key to a white key.
    let keys: ClosedRange<Int>
    /// The song has keys left of the first one shown (a column with `<` shows it).
    let isCutBelow: Bool
    /// The song has keys right of the last one shown (a column with `>` shows it).
    let isCutAbove: Bool

    /// The keyboard for a song playing `songKeys` (`nil`: no note) in at most `width` columns;
    /// `nil` when not even one white key fits.
    init?(songKeys: ClosedRange<UInt8>?, width: Int) {
        if Self.columns(of: Self.allKeys) <= width {
            self.init(keys: Self.allKeys, isCutBelow: false, isCutAbove: false)
            return
        }
        let song = songKeys.map { Int($0.lowerBound)...Int($0.upperBound) } ?? Self.emptySongKeys
        let octaves = song.lowerBound / 12 * 12...min(Self.allKeys.upperBound, song.upperBound / 12 * 12 + 11)
        if Self.columns(of: octaves) <= width {
            self.init(keys: octaves, isCutBelow: false, isCutAbove: false)
            return
        }
        // A column at each end for the marks.
        let fitting = (width - 2) / Self.whiteKeyWidth
        guard fitting >= 1 else { return nil }
        let lowest = Self.whiteIndex(of: octaves.lowerBound)
        let highest = Self.whiteIndex(of: octaves.upperBound)
        let middle = Self.whiteIndex(of: (song.lowerBound + song.upperBound) / 2)
        let first = min(max(middle - (fitting - 1) / 2, lowest), highest - fitting + 1)
        let keys = Self.key(ofWhiteIndex: first)...Self.key(ofWhiteIndex: first + fitting - 1)
        self.init(keys: keys, isCutBelow: keys.lowerBound > song.lowerBound, isCutAbove: keys.upperBound < song.upperBound)
    }

    init(keys: ClosedRange<Int>, isCutBelow: Bool, isCutAbove: Bool) {
        precondition(!Self.isBlack(keys.lowerBound) && !Self.isBlack(keys.upperBound), "a keyboard starts and ends with white keys")
        self.keys = keys
        self.isCutBelow = isCutBelow
        self.isCutAbove = isCutAbove
    }

    /// Columns taken, marks included.
    var width: Int { Self.columns(of: keys) + (isCutBelow ? 1 : 0) + (isCutAbove ? 1 : 0) }

    /// The columns a key takes in the top row, where a roll under the keyboard draws its notes:
    /// one for a black key, two for a white key without a black key on its right, else one.
    /// `nil` for a key not shown.
    func columns(ofKey key: Int) -> Range<Int>? {
        guard keys.contains(key) else { return nil }
        if Self.isBlack(key) { return leftColumn(ofWhiteKey: key - 1) + 1..<leftColumn(ofWhiteKey: key - 1) + 2 }
        let left = leftColumn(ofWhiteKey: key)
        let hasBlackNeighbour = keys.contains(key + 1) && Self.isBlack(key + 1)
        return left..<left + (hasBlackNeighbour ? 1 : 2)
    }

    /// The three rows as text, with the keys of `pressed` lit (see ``cells(pressed:)``).
    func rows(pressed: [UInt64], colours: Bool) -> [String] {
        cells(pressed: pressed).map { TerminalCell.line($0, colours: colours) }
    }

    /// The three rows, with the keys of `pressed` lit (for each key 0–127, a mask of the
    /// channels holding it, bit c for channel c; empty for none), `width` cells each.
    func cells(pressed: [UInt64]) -> [[TerminalCell]] {
        func channels(_ key: Int) -> UInt64 { pressed.indices.contains(key) ? pressed[key] : 0 }
        var top = [TerminalCell](repeating: .blank, count: width)
        var bottom = top
        var labels = [TerminalCell](repeating: .blank, count: width)
        for key in keys where !Self.isBlack(key) {
            let left = leftColumn(ofWhiteKey: key)
            let lit = channels(key)
            top[left] = Self.whiteCell(" ", lit: lit)
            if keys.contains(key + 1), Self.isBlack(key + 1) {
                let litBlack = channels(key + 1)
                top[left + 1] =
                    litBlack == 0
                    ? TerminalCell("█", foreground: Self.blackKeyColour, background: Self.blackKeyColour)
                    : Self.litCell(channels: litBlack)
            } else {
                top[left + 1] = Self.whiteCell("▕", lit: lit)
            }
            bottom[left] = Self.whiteCell(lit == 0 ? " " : Self.litCharacter, lit: lit)
            bottom[left + 1] = Self.whiteCell("▕", lit: lit)
            if key % 12 == 0 {
                for (offset, character) in "C\(key / 12 - 1)".enumerated() where left + offset < width {
                    labels[left + offset] = TerminalCell(character)
                }
            }
        }
        if isCutBelow {
            let beyond = (0..<keys.lowerBound).reduce(UInt64(0)) { $0 | channels($1) }
            top[0] = Self.markCell("<", channels: beyond)
            bottom[0] = top[0]
        }
        if isCutAbove {
            let beyond = (keys.upperBound + 1..<Self.allKeys.count).reduce(UInt64(0)) { $0 | channels($1) }
            top[width - 1] = Self.markCell(">", channels: beyond)
            bottom[width - 1] = top[width - 1]
        }
        return [top, bottom, labels]
    }

    /// A row of a piano roll drawn under the keyboard: each key sounding (a channel mask by key,
    /// as for ``rows(pressed:colours:)``) a `█` at its columns in its lowest channel's colour,
    /// and a mark at a cut edge past which a key sounds.
    func rollRow(sounding: [UInt64], colours: Bool) -> String {
        var cells = [TerminalCell](repeating: .blank, count: width)
        var below: UInt64 = 0
        var above: UInt64 = 0
        for (key, channels) in sounding.enumerated() where channels != 0 {
            if key < keys.lowerBound { below |= channels }
            if key > keys.upperBound { above |= channels }
            guard let columns = columns(ofKey: key) else { continue }
            for column in columns {
                cells[column] = TerminalCell("█", foreground: ChannelPalette.terminalColour(channel: channels.trailingZeroBitCount))
            }
        }
        if isCutBelow, below != 0 { cells[0] = TerminalCell("<", foreground: ChannelPalette.terminalColour(channel: below.trailingZeroBitCount)) }
        if isCutAbove, above != 0 {
            cells[width - 1] = TerminalCell(">", foreground: ChannelPalette.terminalColour(channel: above.trailingZeroBitCount))
        }
        return TerminalCell.line(cells, colours: colours)
    }

    // MARK: Geometry

    static func isBlack(_ key: Int) -> Bool {
        [1, 3, 6, 8, 10].contains(key % 12)
    }

    /// A white key's place among the white keys from key 0 (a black key counts as the white key on its left).
    static func whiteIndex(of key: Int) -> Int {
        let inOctave = [0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6][key % 12]
        return key / 12 * 7 + inOctave
    }

    static func key(ofWhiteIndex index: Int) -> Int {
        index / 7 * 12 + [0, 2, 4, 5, 7, 9, 11][index % 7]
    }

    /// Columns the keys take, from a white key to a white key, without marks.
    static func columns(of keys: ClosedRange<Int>) -> Int {
        (whiteIndex(of: keys.upperBound) - whiteIndex(of: keys.lowerBound) + 1) * whiteKeyWidth
    }

    private func leftColumn(ofWhiteKey key: Int) -> Int {
        (isCutBelow ? 1 : 0) + (Self.whiteIndex(of: key) - Self.whiteIndex(of: keys.lowerBound)) * Self.whiteKeyWidth
    }

    // MARK: Cells

    private static func whiteCell(_ character: Character, lit channels: UInt64) -> TerminalCell {
        let background = channels == 0 ? whiteKeyColour : ChannelPalette.terminalColour(channel: channels.trailingZeroBitCount)
        let foreground = character == litCharacter ? litCharacterColour : edgeColour
        return TerminalCell(character, foreground: foreground, background: background)
    }

    private static func litCell(channels: UInt64) -> TerminalCell {
        TerminalCell(litCharacter, foreground: litCharacterColour, background: ChannelPalette.terminalColour(channel: channels.trailingZeroBitCount))
    }

    private static func markCell(_ character: Character, channels: UInt64) -> TerminalCell {
        channels == 0
            ? TerminalCell(character, foreground: edgeColour)
            : TerminalCell(
                character, foreground: litCharacterColour, background: ChannelPalette.terminalColour(channel: channels.trailingZeroBitCount))
    }
}
