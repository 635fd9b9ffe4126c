import DecafCapture
import DecafDissect
import DecafVectors
import Foundation

/// Where a campaign's inputs start: the golden vectors, or what `--corpus` names (a directory of
/// files, a capture whose frames are taken, or a file that is one input).
enum FuzzCorpus {
    /// The golden vectors' bytes, every group's.
    static var golden: [[UInt8]] {
        FrameVectorFile.all.flatMap(\.tests).map(\.bytes).filter { !$0.isEmpty }
    }

    /// The inputs `paths` hold, in the order given (a directory's files by name).
    static func load(_ paths: [String]) throws(InputError) -> [[UInt8]] {
        var inputs: [[UInt8]] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError("--corpus \(path): no such file or directory")
            }
            let files: [String]
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files = names.sorted().map { (path as NSString).appendingPathComponent($0) }.filter { file in
                    var isDirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && !isDirectory.boolValue
                }
            } else {
                files = [path]
            }
            for file in files { inputs += try self.inputs(of: file) }
        }
        guard !inputs.isEmpty else {
            throw InputError("--corpus \(paths.joined(separator: ", ")) holds no input (empty files, or captures without frames); give frames, a capture or a directory of them")
        }
        return inputs
    }

    /// A capture's frames, or the file's bytes as one input.
    private static func inputs(of file: String) throws(InputError) -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: file) else { throw InputError("--corpus \(file): cannot be read") }
        let bytes = [UInt8](data)
        guard CaptureFormat.detect(bytes.prefix(4)) != nil else { return bytes.isEmpty ? [] : [bytes] }
        var dissector = CaptureDissector()
        var frames: [[UInt8]] = []
        var damage: String?
        for event in dissector.append(bytes[...]) + dissector.finish() {
            switch event {
            case let .frame(frame): frames.append(frame.record.bytes)
            case let .captureError(error): damage = "\(error)"
            default: break
            }
        }
        if frames.isEmpty, let damage { throw InputError("--corpus \(file): a damaged capture with no frame (\(damage))") }
        return frames
    }
}
