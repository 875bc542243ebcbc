// Paywall delivery with a remote source: fetch policies, the time budget, one shared request
// per placement, the cache, and the fallback from network to cache to bundle (between cache
// and bundle the newer content wins). Every fallback is reported as a log event.

/// A `get_paywall` call waiting for the network.
struct PaywallWaiter: Sendable {
    let callToken: UInt64
    let locale: String?
    let defaultAudienceOnly: Bool
    let budgetToken: UInt64
}

/// One backend request for a placement, shared by every call that needs it meanwhile.
struct PlacementFetch: Sendable {
    let requestId: String
    var waiters: [PaywallWaiter]
}

extension Client {
    /// `get_paywall` when a transport is configured.
    func getRemotePaywall(_ request: PlacementRequest, defaultAudienceOnly: Bool) throws(WireError) -> CallOutcome {
        let requestLocale = request.locale ?? locale
        let cached = placementCache.entry(request.placementId)
        switch request.fetchPolicy {
        case .return_cache_data_else_load:
            if let cached { return .done(try serveFetched(cached, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly)) }
        case .return_cache_data_if_not_expired_else_load:
            if let cached, let maxAge = request.maxAge, Double(clock.nowMilliseconds() - cached.fetchedAt) <= maxAge * 1000 {
                return .done(try serveFetched(cached, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly))
            }
        case .reload_revalidating_cache_data:
            break
        }
        let token = try deferResponse(defaultAudienceOnly ? "get_paywall_for_default_audience" : "get_paywall")
        let budget = schedule(.loadBudget(callToken: token, placementId: request.placementId),
                                            after: Int(request.loadTimeout * 1000))
        let waiter = PaywallWaiter(callToken: token, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly, budgetToken: budget)
        if placementFetches[request.placementId] != nil {
            placementFetches[request.placementId]?.waiters.append(waiter)
        } else {
            let requestId = askHostHTTP(placementId: request.placementId, etag: cached?.etag)
            placementFetches[request.placementId] = PlacementFetch(requestId: requestId, waiters: [waiter])
        }
        return .pending(token: token)
    }

    private func askHostHTTP(placementId: String, etag: String?) -> String {
        let url = RemoteSource.url(baseURL: transportBaseURL ?? "", placementId: placementId)
        let headers = RemoteSource.headers(profileId: profile.profileId, etag: etag)
        let timeout = hostRequestTimeout
        return askHost(.http, view: nil, placementId: placementId) { writer in
            writer.member("method", "GET")
            writer.member("url", url)
            writer.key("headers")
            writer.array { writer in
                for (name, value) in headers { writer.array { writer in writer.string(name); writer.string(value) } }
            }
            writer.member("body", nil as String?)
            writer.member("timeout_ms", timeout)
        }
    }

    /// The backend answered (or the request failed or timed out): keep what came, then answer
    /// every call still waiting.
    func finishPlacementFetch(_ placementId: String, outcome: HostOutcome) {
        let fetch = placementFetches.removeValue(forKey: placementId)
        var failure: WireError?
        switch outcome {
        case .timedOut:
            failure = WireError(.timeout, "the backend did not answer in time", details: JSONObject([("placement_id", .string(placementId))]))
        case .answered(let answer):
            if let error = answer.error(code: .networkFailed, fallback: "the request failed") {
                failure = error
            } else if let transportError = answer.result?.object["transport_error"], case .object(let fields) = transportError {
                failure = HostAnswer.transportError(fields)
            } else if let result = answer.result {
                switch RemoteSource.interpret(result, placementId: placementId, now: clock.nowMilliseconds()) {
                case .fresh(let fetched):
                    do throws(WireError) { try placementCache.store(fetched) } catch {
                        log(.error, "could not cache placement '\(placementId)': \(error.message)")
                    }
                case .notModified:
                    do throws(WireError) { try placementCache.touch(placementId, now: clock.nowMilliseconds()) } catch {
                        log(.error, "could not refresh the cached placement '\(placementId)': \(error.message)")
                    }
                case .notFound:
                    failure = WireError(.notFound, "the backend has no placement '\(placementId)'",
                                        details: JSONObject([("placement_id", .string(placementId))]))
                case .failed(let error):
                    failure = error
                }
            }
        }
        guard let fetch else { return }
        for waiter in fetch.waiters {
            timers.removeValue(forKey: waiter.budgetToken)
            completions?.complete(token: waiter.callToken, response: answerWaiter(waiter, placementId: placementId, networkFailure: failure))
        }
    }

    /// The budget ran out before the backend answered: answer from cache or bundle now; the
    /// request goes on, and its answer still refreshes the cache.
    func loadBudgetExpired(callToken: UInt64, placementId: String) {
        guard let index = placementFetches[placementId]?.waiters.firstIndex(where: { $0.callToken == callToken }),
              let waiter = placementFetches[placementId]?.waiters.remove(at: index) else { return }
        let failure = WireError(.timeout, "the backend did not answer within the load_timeout budget",
                                details: JSONObject([("placement_id", .string(placementId))]))
        completions?.complete(token: callToken, response: answerWaiter(waiter, placementId: placementId, networkFailure: failure))
    }

    /// The newest of network, cache and bundle: the fetched copy when the network answered,
    /// else the newer of cache and bundle; an error when there is none.
    private func answerWaiter(_ waiter: PaywallWaiter, placementId: String, networkFailure: WireError?) -> CallResponse {
        do throws(WireError) {
            let cached = placementCache.entry(placementId)
            if networkFailure == nil, let cached {
                return try serveFetched(cached, locale: waiter.locale, defaultAudienceOnly: waiter.defaultAudienceOnly)
            }
            let failure = networkFailure ?? WireError(.networkFailed, "the backend sent nothing usable")
            let bundleVersion = (try? bundle?.paywalls.placement(placementId)) != nil ? bundle?.responseCreatedAt : nil
            if let cached, cached.responseCreatedAt >= (bundleVersion ?? .min) {
                log(.warn, "placement '\(placementId)' served from the cache: \(failure.message)",
                    details: [("placement_id", .string(placementId)), ("source", .string("cache")), ("underlying_error", .string(failure.code.rawValue))])
                return try serveFetched(cached, locale: waiter.locale, defaultAudienceOnly: waiter.defaultAudienceOnly)
            }
            if bundleVersion != nil {
                log(.warn, "placement '\(placementId)' served from the fallback bundle: \(failure.message)",
                    details: [("placement_id", .string(placementId)), ("source", .string("fallback")), ("underlying_error", .string(failure.code.rawValue))])
                return CallResponse(status: .ok, envelope: try servePaywall(placementId, locale: waiter.locale,
                                                                            defaultAudienceOnly: waiter.defaultAudienceOnly).envelope)
            }
            throw failure
        } catch {
            return .failure(error)
        }
    }

    /// A paywall from a fetched placement, encoded once per fetched copy and then reused.
    private func serveFetched(_ fetched: RemoteSource.Fetched, locale requestLocale: String?, defaultAudienceOnly: Bool) throws(WireError) -> CallResponse {
        let key = PaywallCacheKey(placementId: fetched.placementId, requestLocale: requestLocale,
                                  defaultAudienceOnly: defaultAudienceOnly, remote: true)
        let copy = (fetched.fetchedAt, fetched.responseCreatedAt)
        if let served = servedPaywalls[key], served.isCurrent(now: clock.nowMilliseconds, fetchedCopy: copy) {
            return CallResponse(status: .ok, envelope: served.envelope)
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(fetched.placement)
        } catch {
            throw WireError(.decodingFailed, "the cached placement '\(fetched.placementId)' does not parse")
        }
        let placement: Placement<Variation>
        do throws(WireError) {
            placement = try Placement<Variation>.load(id: fetched.placementId, section: "placements", from: value)
        } catch {
            throw WireError(.decodingFailed, "the backend's placement is invalid: \(error.message)", details: error.details)
        }
        let selection = try select(placement, locale: requestLocale, defaultAudienceOnly: defaultAudienceOnly,
                                   responseCreatedAt: fetched.responseCreatedAt)
        var writer = JSONWriter(reservingCapacity: 1024)
        Paywall(selection: selection).write(to: &writer)
        let response = CallResponse.success(writer.bytes)
        servedPaywalls[key] = ServedPaywall(paywall: writer.bytes, envelope: response.envelope,
                                            validUntil: choiceValidUntil(), fetchedCopy: copy)
        return response
    }
}

extension HostAnswer {
    /// `result.transport_error {code, message}`: the host's network stack failed.
    static func transportError(_ fields: JSONObject) -> WireError {
        var message = "the host's HTTP request failed"
        if case .string(let text)? = fields["message"] { message = text }
        var details = JSONObject()
        if case .string(let code)? = fields["code"] { details.set("underlying_error", .string(code)) }
        return WireError(.networkFailed, message, details: details)
    }
}
