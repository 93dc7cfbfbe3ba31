import SystemPackage

extension FilePath {
    /// Creates an empty file by this name with `permissions` (before the umask), only if nothing
    /// has the name: `Errno.fileExists` otherwise. Of two processes claiming one name, one gets it.
    public func createNewFile(permissions: FilePermissions) throws(Errno) {
        let descriptor = try Errno.typed {
            try FileDescriptor.open(self, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: permissions)
        }
        try? descriptor.close()
    }
}
