import DecafCapture

// A frame record and everything in it write themselves, keys in sorted order: the same line the
// Encodable forms give (the tests hold every record of every vector and capture to Foundation's),
// several times faster, since `--json` writes one per frame.

extension FrameRecordJSON: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("body", body)
            writer.member("captureTime", captureTime)
            writer.member("checksum", checksum)
            writer.member("connection", connection)
            writer.member("direction", direction?.rawValue)
            writer.member("error", error)
            writer.member("header", header)
            writer.member("hex", hex)
            writer.member("index", index)
            writer.member("length", length)
            writer.member("packet", packet)
            if let packets { writer.key("packets"); writer.array(packets) { $0.number($1) } }
            writer.member("record", record)
            writer.member("status", status)
            writer.member("streamOffset", streamOffset)
            writer.member("tlv", tlv)
            writer.member("warnings", warnings)
        }
    }
}

extension FrameRecordJSON.Body: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("compressed", compressed)
            writer.member("hex", hex)
            writer.member("inflated", inflated)
            writer.member("length", length)
            writer.member("opaque", opaque)
        }
    }
}

extension FrameRecordJSON.Checksum: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("computed", computed)
            writer.member("littleEndian", littleEndian)
            writer.member("status", status)
            writer.member("stored", stored)
        }
    }
}

extension FrameRecordJSON.Warning: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("message", message)
            writer.member("requirement", requirement)
        }
    }
}

extension FrameRecordJSON.ErrorInfo: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("code", code)
            writer.member("frameOffset", frameOffset)
            writer.member("message", message)
            writer.member("name", name)
            writer.member("offset", offset)
            writer.member("requirement", requirement)
        }
    }
}

extension ConnectionJSON: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("client", client)
            writer.member("index", index)
            writer.member("server", server)
        }
    }
}

extension FrameHeaderJSON: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("bodyLength", bodyLength)
            writer.member("checksum", checksum)
            writer.member("compressType", compressType)
            writer.member("compressTypeName", compressTypeName)
            writer.member("encryptType", encryptType)
            writer.member("encryptTypeName", encryptTypeName)
            writer.member("magic", magic)
            writer.member("msgType", msgType)
            writer.member("msgTypeName", msgTypeName)
            writer.member("sequence", sequence)
            writer.member("sequenceCategory", sequenceCategory)
            writer.member("sequenceCategoryName", sequenceCategoryName)
            writer.member("sequenceCounter", sequenceCounter)
            writer.member("sessionId", sessionId)
            writer.member("time", time)
            writer.member("timestamp", timestamp)
            writer.member("versionMajor", versionMajor)
            writer.member("versionMinor", versionMinor)
        }
    }
}

extension TLVFieldJSON: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("decoded", decoded)
            writer.member("fields", fields)
            writer.member("length", length)
            writer.member("name", name)
            writer.member("offset", offset)
            writer.member("tag", tag)
            writer.member("value", value)
        }
    }
}

extension TLVFieldJSON.Decoded: JSONObjectWritable {
    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("code", code)
            writer.member("codeName", codeName)
            if let featureNames { writer.key("featureNames"); writer.array(featureNames) { $0.string($1) } }
            writer.member("features", features)
            writer.member("malformed", malformed)
            writer.member("reason", reason)
            writer.member("sequence", sequence)
            writer.member("text", text)
            writer.member("version", version)
        }
    }
}
