import CPNG
import Files
import SMF
import SystemPackage

/// PNG files, encoded by libpng's simplified API and written whole or not at
/// all (a temporary file beside the target, flushed, then renamed).
public enum PNGFile {
    public static func write(_ image: RGBImage, to path: FilePath) throws(ThumbnailError) {
        let bytes = try encode(image, for: path)
        do {
            try AtomicWrite.write(bytes, to: path)
        } catch {
            throw .cannotWrite(error)
        }
    }

    /// The bytes of a PNG file holding `image`; `path` only names the file in errors.
    static func encode(_ image: RGBImage, for path: FilePath) throws(ThumbnailError) -> [UInt8] {
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
}
