import SMF

/// Whatever the lenient reader keeps of the input, damaged or not, the writer writes a file that
/// strict reading accepts and reads back as ``SMFWriter/written(_:)`` says, which writes the same
/// bytes again.
enum WriterFuzzing {
    static func test(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard let file = try? SMFReader(policy: .lenient).read(bytes).file else { return }
        let writer = SMFWriter()
        let written = writer.encode(file)
        let again: MIDIFile
        do {
            again = try SMFReader(policy: .strict).read(written).file
        } catch {
            throw .brokenPromise("strict reading refuses the written file: \(error)")
        }
        guard again == writer.written(file) else { throw .brokenPromise("the written file reads back as another file") }
        guard writer.encode(again) == written else { throw .brokenPromise("the file read back is written as other bytes") }
    }
}
