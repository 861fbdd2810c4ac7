// swift-tools-version: 6.0
import PackageDescription

// No package dependencies: only the Swift toolchain (Foundation, Dispatch, Synchronization, Testing).
let package = Package(
    name: "LocationRouter",
    products: [
        .library(name: "GeofenceKit", targets: ["GeofenceKit"]),
        .library(name: "LocationRouter", targets: ["LocationRouter"]),
        .executable(name: "location-router", targets: ["location-router"]),
        .executable(name: "location-router-bench", targets: ["LocationRouterBenchmarks"]),
    ],
    targets: [
        .target(name: "GeofenceKit"),
        .target(name: "LocationRouter", dependencies: ["GeofenceKit"]),
        .executableTarget(name: "location-router", dependencies: ["LocationRouter", "GeofenceKit"]),
        .executableTarget(
            name: "LocationRouterBenchmarks",
            dependencies: ["LocationRouter", "GeofenceKit"],
            path: "Benchmarks/LocationRouterBenchmarks"
        ),
        .testTarget(name: "GeofenceKitTests", dependencies: ["GeofenceKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "LocationRouterTests", dependencies: ["LocationRouter", "GeofenceKit"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CLITests", dependencies: ["location-router", "LocationRouter", "GeofenceKit"], resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
