// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Decaf",
    products: [
        .library(name: "DecafWire", targets: ["DecafWire"]),
        .library(name: "DecafCapture", targets: ["DecafCapture"]),
        .library(name: "DecafJSON", targets: ["DecafJSON"]),
        .library(name: "DecafDissect", targets: ["DecafDissect"]),
        .library(name: "DecafVectors", targets: ["DecafVectors"]),
        .library(name: "DecafSession", targets: ["DecafSession"]),
        .library(name: "DecafNIO", targets: ["DecafNIO"]),
        .library(name: "DecafPeer", targets: ["DecafPeer"]),
        .library(name: "DecafConformance", targets: ["DecafConformance"]),
        .library(name: "DecafProxy", targets: ["DecafProxy"]),
        .library(name: "DecafFuzz", targets: ["DecafFuzz"]),
        .library(name: "DecafMonitor", targets: ["DecafMonitor"]),
        .executable(name: "decaf", targets: ["decaf"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // DocC for the libraries users import: swift package generate-documentation (make docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "CSpawn"),
        .target(name: "DecafWire", dependencies: ["CDeflate"]),
        .target(name: "DecafCapture", dependencies: ["DecafWire"]),
        .target(name: "DecafJSON", dependencies: ["DecafWire"]),
        .target(name: "DecafSession", dependencies: ["DecafWire"]),
        .target(name: "DecafDiagnosis", dependencies: ["DecafWire"]),
        .target(
            name: "DecafDissect",
            dependencies: ["DecafWire", "DecafCapture", "DecafJSON", .product(name: "Histogram", package: "hdrhistogram-swift")],
            resources: [.embedInCode("WiresharkPlugin.lua")]
        ),
        .target(
            name: "DecafNIO",
            dependencies: [
                "DecafWire", "DecafSession", "CSpawn",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ]
        ),
        .target(
            name: "DecafPeer",
            dependencies: [
                "DecafWire", "DecafSession", "DecafNIO", "DecafConformance", "DecafDiagnosis",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "DecafProxy",
            dependencies: [
                "DecafSession", "DecafNIO", "DecafJSON", "DecafCapture", "DecafDissect", "DecafMonitor",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(name: "DecafFuzz", dependencies: ["DecafWire", "DecafSession", "DecafNIO", "DecafVectors", "DecafConformance", "DecafPeer", "DecafDiagnosis"]),
        .target(name: "DecafMonitor", dependencies: ["DecafWire", "DecafCapture", "DecafDissect"]),
        .target(name: "DecafVectors", dependencies: ["DecafWire", "DecafCapture", "DecafJSON"]),
        .target(
            name: "DecafConformance",
            dependencies: ["DecafWire", "DecafSession", "DecafNIO", "DecafVectors", "DecafJSON", "DecafDiagnosis"]
        ),
        .executableTarget(
            name: "decaf",
            dependencies: [
                "DecafWire", "DecafJSON", "DecafCapture", "DecafDissect", "DecafVectors", "DecafSession", "DecafNIO", "DecafPeer", "DecafConformance",
                "DecafProxy", "DecafFuzz", "DecafDiagnosis", "DecafMonitor",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "DecafTestSupport",
            dependencies: [
                "DecafWire", "DecafSession", "DecafNIO", "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/DecafTestSupport"
        ),
        .testTarget(name: "DecafCaptureTests", dependencies: ["DecafCapture", "DecafDissect", "DecafJSON", "DecafVectors", "DecafWire", "DecafTestSupport"]),
        .testTarget(name: "DecafWireTests", dependencies: ["DecafWire", "DecafTestSupport"]),
        .testTarget(name: "DecafJSONTests", dependencies: ["DecafJSON", "DecafWire"]),
        .testTarget(name: "DecafFuzzTests", dependencies: ["DecafFuzz", "DecafWire", "DecafVectors", "DecafConformance", "DecafSession", "DecafDiagnosis"]),
        .testTarget(
            name: "DecafNIOTests",
            dependencies: ["DecafNIO", "DecafWire", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]
        ),
        .testTarget(
            name: "DecafPeerTests",
            dependencies: [
                "DecafPeer", "DecafNIO", "DecafSession", "DecafWire", "DecafDissect", "DecafTestSupport",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "DecafDissectTests", dependencies: ["DecafDissect", "DecafCapture", "DecafJSON", "DecafVectors", "DecafWire", "DecafTestSupport"]),
        .testTarget(
            name: "DecafConformanceTests",
            dependencies: [
                "DecafConformance", "DecafDiagnosis", "DecafPeer", "DecafNIO", "DecafSession", "DecafVectors", "DecafWire", "DecafTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "DecafCommandLineTests",
            dependencies: [
                "decaf", "DecafPeer", "DecafSession", "DecafWire", "DecafTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "DecafProxyTests",
            dependencies: [
                "DecafProxy", "DecafSession", "DecafNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "DecafMonitorTests", dependencies: ["DecafMonitor", "DecafCapture", "DecafDissect", "DecafSession", "DecafWire"]),
        .testTarget(name: "DecafSessionTests", dependencies: ["DecafSession", "DecafWire", "DecafTestSupport"]),
        .testTarget(name: "DecafVectorsTests", dependencies: ["DecafVectors", "DecafDissect", "DecafJSON", "DecafWire", "DecafTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
