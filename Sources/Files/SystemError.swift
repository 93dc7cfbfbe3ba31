#if canImport(Glibc)
    import Glibc
#endif

/// A system call's failure in the words people look for, before the system's own.
public enum SystemError {
    public static func text(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "disk full (no space left on device)"
        case EDQUOT: "disk quota exceeded"
        case EFBIG: "file too large"
        case EACCES, EPERM: "permission denied"
        case EROFS: "read-only file system"
        default: String(cString: strerror(code)).lowercased()
        }
    }

    /// The last failure of this thread.
    public static var current: String { text(errno) }
}
