/// A MIDI 2.0 Set Key Signature (Flex Data) as a MIDI file's key signature: the sharps or flats
/// (a signed 4-bit number, −7 to 7; −8 is a key no signature names) and the tonic's letter (1 for
/// A to 7 for G; 0 unknown). A MIDI file says major or minor instead of the tonic: minor when the
/// tonic is the letter two below the major key's (the relative minor).
struct ClipKeySignature: Equatable {
    var sharpsOrFlats: Int8
    var isMinor: Bool

    init?(word: UInt32) {
        let nibble = Int(word >> 28 & 0xF)
        let count = nibble >= 8 ? nibble - 16 : nibble
        guard count >= -7 else { return nil }
        sharpsOrFlats = Int8(count)
        // Letters as C = 0 … B = 6; each sharp is a fifth up, four letters.
        let majorTonic = ((4 * count) % 7 + 7) % 7
        let tonic = Int(word >> 24 & 0xF)
        let letters = [5, 6, 0, 1, 2, 3, 4] // A, B, C, D, E, F, G
        isMinor = (1...7).contains(tonic) && letters[tonic - 1] == (majorTonic + 5) % 7
    }
}
