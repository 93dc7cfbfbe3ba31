import AudioOutput

#if canImport(Glibc)
    import Glibc
#endif

extension RenderError {
    /// The disk, or the user's quota on it, is full: every render after this one would fail the
    /// same way, after rendering its song for nothing.
    public var isDiskFull: Bool {
        let code: Int32
        switch self {
        case .output(.writeFailed(_, .system(let errno))), .output(.cannotCreate(_, .system(let errno))): code = errno
        case .outputFolder(let error): code = error.errno.rawValue
        default: return false
        }
        return code == ENOSPC || code == EDQUOT
    }
}
