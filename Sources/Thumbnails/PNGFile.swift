import CPNG
import Files
import SMF
import SystemPackage

/// PNG files, encoded by libpng's simplified API and written whole or not at
/// all (a temporary file beside the target, flushed, then renamed).
public enum PNGFile {
    /// - Parameter text: `tEXt` chunks, keyword and Latin-1 text, put after the header (the
    ///   freedesktop thumbnail cache keeps the file's URI and modification time in them).
    /// - Parameter access: who may read the file (see `AtomicWrite.Access`).
    public static func write(
        _ image: RGBImage, to path: FilePath, text: [(keyword: String, text: String)] = [],
        access: AtomicWrite.Access = .shared
    ) throws(ThumbnailError) {
        var bytes = try encode(image, for: path)
        bytes.insert(contentsOf: text.flatMap { chunk(type: "tEXt", Array($0.keyword.utf8) + [0] + Array($0.text.utf8)) }, at: headerEnd)
        do {
            try AtomicWrite.write(bytes, to: path, access: access)
        } catch {
            throw .cannotWrite(error)
        }
    }

    /// The bytes of a PNG file holding `image`; `path` only names the file in errors.
    public static func encode(_ image: RGBImage, for path: FilePath) throws(ThumbnailError) -> [UInt8] {
        // A piano roll compresses well: this first guess is nearly always enough.
        // When it is not, libpng says how much it needs, and a second try uses that.
        var capacity = image.bytes.count + image.height + 1024
        for _ in 0..<2 {
            var control = png_image()
            control.version = png_uint_32(PNG_IMAGE_VERSION)
            control.width = png_uint_32(image.width)
            control.height = png_uint_32(image.height)
            control.format = png_uint_32(PNG_FORMAT_RGB)
            var size = capacity
            var succeeded = false
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                succeeded = image.bytes.withUnsafeBufferPointer { pixels in
                    png_image_write_to_memory(&control, buffer.baseAddress, &size, 0, pixels.baseAddress, 0, nil) != 0
                }
                count = succeeded ? size : 0
            }
            let message = withUnsafeBytes(of: control.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&control)
            if succeeded { return bytes }
            // An unchanged size means an error, not a buffer too small.
            guard size > capacity else { throw .encodingFailed(path: path, reason: message.isEmpty ? "libpng failed" : message) }
            capacity = size
        }
        throw .encodingFailed(path: path, reason: "libpng asked for more room than it said it needed")
    }

    /// The 8-byte signature and the IHDR chunk (13 bytes of data, 12 of length, type and CRC):
    /// libpng always writes them first.
    private static let headerEnd = 8 + 12 + 13

    private static func chunk(type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    /// The CRC-32 a PNG chunk ends with (ISO 3309, reflected, polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
