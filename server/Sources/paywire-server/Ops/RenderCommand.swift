import Foundation
import PaywireModel
import PaywireServing
import PaywireWeb
import PaywireWire

/// The server's offline commands: they read files, print, and exit, and no server starts. The
/// docs gallery (tools/docs/gallery) draws every section type and plan style with them, so its
/// pictures are the web paywall's own page and its test reads the builder's own lists.
///
///     paywire-server --render-paywall BUNDLE --products FILE --placement ID [--variation ID] [--locale TAG]
///     paywire-server --list-section-types
enum RenderCommand {
    /// The usage lines `--help` adds.
    static let usage = """
               paywire-server --render-paywall BUNDLE --products FILE --placement ID [--variation ID] [--locale TAG]
                                              (a placement's page in preview mode, HTML on stdout)
               paywire-server --list-section-types   (the builder's names: `section_type NAME`, `plan_style NAME`, `layout NAME` a line)
        """

    /// The exit status when `arguments` are one of these commands (after doing it); nil when
    /// they are not, so the server starts as usual.
    static func run(_ arguments: [String]) -> Int32? {
        switch arguments.first.map(Flags.split)?.flag {
        case "--list-section-types":
            write(listing + "\n", to: .standardOutput)
            return 0
        case "--render-paywall":
            return render(arguments)
        default:
            return nil
        }
    }

    /// Every name a builder configuration may use, with its kind, one a line.
    static var listing: String {
        (PaywallBuilderNames.sectionTypes.map { "section_type \($0)" } + PaywallBuilderNames.planStyles.map { "plan_style \($0)" }
            + PaywallBuilderNames.layouts.map { "layout \($0)" }).joined(separator: "\n")
    }

    /// What `--render-paywall` was asked for.
    struct Request: Equatable {
        var bundlePath = ""
        var productsPath = ""
        var placementId = ""
        var variationId: String?
        var locale: String?
    }

    /// Something the command cannot do: 2 for arguments it does not understand (as the
    /// server's own options), 1 for inputs that do not check or hold no page.
    struct Problem: Error {
        let message: String
        let status: Int32
    }

    static func parse(_ arguments: [String]) throws(Problem) -> Request {
        var request = Request()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let (flag, inline) = Flags.split(argument)
            guard let value = inline ?? iterator.next() else { throw Problem(message: "\(flag) needs a value", status: 2) }
            switch flag {
            case "--render-paywall": request.bundlePath = value
            case "--products": request.productsPath = value
            case "--placement": request.placementId = value
            case "--variation": request.variationId = value
            case "--locale": request.locale = value
            default: throw Problem(message: "--render-paywall does not take '\(argument)'\n\(usage)", status: 2)
            }
        }
        for (value, flag) in [(request.productsPath, "--products"), (request.placementId, "--placement")] where value.isEmpty {
            throw Problem(message: "--render-paywall needs \(flag)\n\(usage)", status: 2)
        }
        return request
    }

    /// The page of the request, or the problem that prevents it.
    static func page(_ request: Request, bundle: [UInt8], products: [UInt8]) throws(Problem) -> String {
        let chosen: WebPaywall?
        do throws(WireError) {
            let servable = try WebCatalog(ServableBundle.load(bundle))
            // A fixed profile: the same files draw the same variation each time (--variation forces one).
            chosen = try servable.webPaywall(
                placementId: request.placementId,
                for: WebPaywall.Visitor(profileId: "render-paywall", locale: request.locale, activeAccessLevels: []),
                variationId: request.variationId, products: try StoreProduct.catalog(products))
        } catch {
            throw Problem(message: "\(error.code.rawValue): \(error.message)", status: 1)
        }
        guard let chosen else {
            throw Problem(message: "no page: the bundle has no placement '\(request.placementId)', or no audience of it takes this visitor", status: 1)
        }
        guard let configuration = chosen.configuration else {
            throw Problem(message: "no page: the variation chosen in '\(request.placementId)' is a holdout", status: 1)
        }
        // No Content-Security-Policy header travels with a printed page, so the nonce only has
        // to match itself; a fixed one keeps the output the same for the same files.
        return PaywallPage.render(configuration, options: PaywallPage.Options(
            title: chosen.paywallName.isEmpty ? "Premium" : chosen.paywallName, lang: chosen.language, nonce: "render-paywall",
            mode: .preview))
    }

    private static func render(_ arguments: [String]) -> Int32 {
        do throws(Problem) {
            let request = try parse(arguments)
            let html = try page(request, bundle: try read(request.bundlePath), products: try read(request.productsPath))
            write(html, to: .standardOutput)
            return 0
        } catch {
            write("paywire-server: \(error.message)\n", to: .standardError)
            return error.status
        }
    }

    private static func read(_ path: String) throws(Problem) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(message: "cannot read \(path)", status: 1) }
        return Array(data)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
