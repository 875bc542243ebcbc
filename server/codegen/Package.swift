// swift-tools-version:6.0
import PackageDescription

// The OpenAPI generator as a command (`make server-generate`, `make check-server-generated`):
// the server's routes and models are generated from api/openapi.yaml by this tool and the
// output is committed (server/Sources/PaywireAPI/Generated), so building the server never builds the
// generator (OpenAPIKit, Yams: minutes on two cores).
let package = Package(
    name: "paywire-server-codegen",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3"),
    ],
    targets: []
)
