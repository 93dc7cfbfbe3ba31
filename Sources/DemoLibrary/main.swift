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
    let path = output + "/" + piece.path
    let folder = String(path[..<path.lastIndex(of: "/")!])
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
        fail("\(folder): cannot create the folder: \((error as NSError).localizedDescription)")
    }
    do {
        try AtomicWrite.write(SMFWriter().encode(piece.file), to: FilePath(path))
    } catch {
        fail(error.description)
    }
    let seconds = Int(Song(file: piece.file).duration.rounded())
    print("\(path)  (\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60))")
}
