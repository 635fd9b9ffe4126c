import CZlib

/// The system zlib, the interoperability reference the tests hold DecafWire's libdeflate engine to.
public enum ReferenceZlib {
    /// zlib's `crc32` of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// zlib's `compress2` of `bytes` at `level`.
    public static func compress(_ bytes: [UInt8], level: Int32 = Z_DEFAULT_COMPRESSION) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &size, input.baseAddress, uLong(input.count), level)
            }
        }
        precondition(status == Z_OK, "compress2 failed: \(status)")
        return Array(out.prefix(Int(size)))
    }

    /// zlib's inflate of one complete stream, or nil if zlib rejects it or input is left over.
    public static func inflate(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while status == Z_OK {
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer.prefix(chunkBuffer.count - Int(stream.avail_out)))
                }
            }
        }
        return status == Z_STREAM_END && stream.avail_in == 0 ? output : nil
    }

    /// A zlib stream of `count` zero bytes, made in chunks so the zeros are never all in memory.
    public static func compressedZeros(count: Int) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var zeros = [UInt8](repeating: 0, count: 1 << 20)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var output: [UInt8] = []
        var remaining = count
        var flush = Z_NO_FLUSH
        var status = Z_OK
        repeat {
            let take = min(remaining, zeros.count)
            remaining -= take
            flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
            zeros.withUnsafeMutableBufferPointer { input in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(take)
                repeat {
                    chunk.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        status = deflate(&stream, flush)
                        output.append(contentsOf: out.prefix(out.count - Int(stream.avail_out)))
                    }
                } while stream.avail_out == 0
            }
        } while flush != Z_FINISH
        precondition(status == Z_STREAM_END, "deflate failed: \(status)")
        return output
    }
}
