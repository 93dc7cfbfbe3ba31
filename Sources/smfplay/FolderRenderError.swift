import Files
import SystemPackage

/// Why a folder's settings cannot render a song.
enum FolderRenderError: Error, Sendable, CustomStringConvertible {
    /// `loops = "inf"` in a folder file: a render would never end.
    case endlessLoops(file: FilePath?)

    var description: String {
        switch self {
        case .endlessLoops(let file):
            "loops = \"inf\" in \(file?.text ?? "a folder's .smfplay.toml") would never end a render: give --loops with a number"
        }
    }
}
