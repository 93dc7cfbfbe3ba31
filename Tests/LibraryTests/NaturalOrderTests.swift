import Testing

@testable import Library

struct NaturalOrderTests {
    /// ASCII names are cut into runs by their bytes, the rest by their characters: both ways
    /// must cut alike (digits first or last, leading zeros, a line break, no digit at all).
    @Test(arguments: ["op.10 no.02.mid", "12 etudes", "track 7", "", "no digits", "a1b22c333", "line\r\nbreak 5", "007"])
    func asciiNamesAreCutAsCharactersAre(_ name: String) {
        #expect(NaturalOrder.Key.chunks(ofASCII: name) == NaturalOrder.Key.chunks(of: name))
    }

    /// A name typed on macOS (NFD) and the same name from Linux (NFC) are the same
    /// name: neither precedes the other, and each sorts where the other would.
    @Test func nfcAndNFDNamesSortAndMatchAlike() {
        let nfc = "Gymnop\u{E9}die 2.mid"
        let nfd = "Gymnope\u{301}die 2.mid"
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        #expect(!NaturalOrder.precedes(nfc, nfd))
        #expect(!NaturalOrder.precedes(nfd, nfc))
        let others = ["Gymnopédie 10.mid", "Gymnopédie 1.mid", "Gymnasium.mid", "Zeta.mid"]
        let withNFC = (others + [nfc]).sorted(by: NaturalOrder.precedes)
        let withNFD = (others + [nfd]).sorted(by: NaturalOrder.precedes)
        #expect(withNFC.firstIndex(of: nfc) == 2)
        #expect(withNFD.firstIndex(of: nfd) == 2)
        #expect(withNFC == withNFD)
    }
}
