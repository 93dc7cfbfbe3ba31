#if canImport(Glibc)
    import Glibc
#endif

/// Prints a line to standard error.
public func printError(_ line: String) {
    let text = "smfplay: \(line)\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}
