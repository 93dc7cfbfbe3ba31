import Configuration

/// The configuration file: any text is read into settings or refused with an error that names
/// its problem. TOMLKit's parser (toml++) is reached through it.
enum ConfigurationFuzzing {
    static func test(_ bytes: [UInt8]) {
        _ = try? Configuration(parsing: String(decoding: bytes, as: UTF8.self), path: "/fuzz/config.toml")
    }
}
