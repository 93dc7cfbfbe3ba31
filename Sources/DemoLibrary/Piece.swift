import SMF

/// One file of the demo library.
struct DemoPiece {
    /// Where it goes in the library: `<Composer>/<Category>/<piece>.mid`.
    let path: String
    let file: MIDIFile
}

/// Every piece of the demo library, in the order they are written.
enum DemoLibrary {
    static var pieces: [DemoPiece] {
        [
            BachPreludeInC.piece,
            BachInventions.invention1,
            BachInventions.invention8,
            BachInventions.invention10,
            ChopinPreludeInCMinor.piece,
            SatieGymnopedie.piece,
            Greensleeves.piece,
        ]
    }
}
