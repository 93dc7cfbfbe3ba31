import Files
import Foundation
import SMF
import SystemPackage

// Writes the demo library: smfplay-demo-library [output folder, default Examples/Library]

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("-h") || arguments.contains("--help") || arguments.count > 1 {
    print("usage: smfplay-demo-library [output-folder]   (default: Examples/Library)")
    print("Writes the demo MIDI files, generated from code, as <Composer>/<Category>/<piece>.mid.")
    exit(arguments.count > 1 ? 2 : 0)
}
let output = arguments.first ?? "Examples/Library"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("smfplay-demo-library: \(message)\n".utf8))
    exit(1)
}

for piece in DemoLibrary.pieces {
    let path = FilePath(output).pushing(FilePath(piece.path))
    do {
        try path.containingFolder.makeFolders(permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
        try AtomicWrite.write(SMFWriter().encode(piece.file), to: path)
    } catch {
        fail("\(error)")
    }
    let seconds = Int(Song(file: piece.file).duration.rounded())
    print("\(path)  (\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60))")
}
