/// A promise the code under test broke for one input: what a fuzz run is looking for.
public enum FuzzFailure: Error, CustomStringConvertible {
    case brokenPromise(String)
    /// A file given to replay that cannot be read.
    case unreadableInput(String)
    /// What the target needs is missing: it can test nothing.
    case cannotRun(String)

    public var description: String {
        switch self {
        case .brokenPromise(let what): what
        case .unreadableInput(let why): "cannot read the input: \(why)"
        case .cannotRun(let why): why
        }
    }
}
