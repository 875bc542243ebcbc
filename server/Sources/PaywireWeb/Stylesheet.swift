/// The page's one stylesheet, sent inline under the response's nonce. Colours come only from
/// `Palette`, so the contrast test sees what the browser draws. Motion (smooth scrolling,
/// transitions) is switched on only for readers who have not asked for less.
enum Stylesheet {
    static let css: String = base + sections + plans + planStyles + controls + media

    private static let base = """
    *,*::before,*::after{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
    body{margin:0;background:\(Palette.page.css);color:\(Palette.ink.css);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
    .pw-form{margin:0}
    .pw-page{max-width:640px;margin:0 auto;padding:24px 16px 0;overflow-wrap:break-word}
    .pw-copy{overflow-wrap:anywhere;word-break:break-all}
    .pw-page.pw-layout-grid{max-width:1040px}
    .pw-sections{display:flex;flex-direction:column;gap:16px;padding-bottom:24px}
    .pw-layout-grid .pw-sections{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:16px 24px;align-items:start}
    .pw-layout-grid .pw-sections>:is(.pw-header,.pw-plans,.pw-cta,.pw-legal,.pw-divider,.pw-unknown){grid-column:1/-1}
    .pw-layout-carousel .pw-sections{display:grid;grid-auto-flow:column;grid-auto-columns:100%;overflow-x:auto;scroll-snap-type:x mandatory;align-items:start}
    .pw-layout-carousel .pw-sections>*{scroll-snap-align:start}
    @media (max-width:640px){.pw-layout-grid .pw-sections{grid-template-columns:minmax(0,1fr)}}
    :focus-visible{outline:3px solid \(Palette.accent.css);outline-offset:2px}
    .pw-visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
    .pw-unknown{padding:12px 16px;border:2px dashed \(Palette.noteInk.css);border-radius:8px;background:\(Palette.noteBackground.css);color:\(Palette.noteInk.css);font-size:.875rem}
    @media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}.pw-plan-body,.pw-cta,.pw-switch::after{transition:background-color .15s,border-color .15s}}

    """

    private static let sections = """
    .pw-header{text-align:center}
    .pw-title{margin:0;font-size:1.75rem;line-height:1.2}
    h2.pw-title{font-size:1.375rem}
    .pw-subtitle{margin:.25rem 0 0;color:\(Palette.muted.css)}
    .pw-features,.pw-icon-grid,.pw-timeline,.pw-track{list-style:none;margin:0;padding:0}
    .pw-features li{display:flex;gap:12px;align-items:center;padding:4px 0}
    .pw-icon{flex:none;display:inline-flex;align-items:center;justify-content:center;width:24px;height:24px;border-radius:50%;background:\(Palette.accent.css);color:\(Palette.onAccent.css);font-size:.75rem;font-weight:700;line-height:1}
    img.pw-icon{background:none;object-fit:contain;border-radius:4px}
    .pw-icon-mark::after{content:"";width:6px;height:11px;border:solid \(Palette.onAccent.css);border-width:0 2px 2px 0;transform:translateY(-1px) rotate(45deg)}
    .pw-social,.pw-guarantee{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:8px;margin:0;text-align:center}
    .pw-guarantee{color:\(Palette.muted.css)}
    .pw-stars{color:\(Palette.star.css);letter-spacing:2px}
    .pw-rating-value{font-weight:700}
    .pw-testimonial,.pw-review{margin:0;padding:16px;border-radius:12px;background:\(Palette.surface.css);height:100%}
    .pw-review>p{margin:0 0 8px}
    .pw-quote{margin:0;font-style:italic}
    .pw-quote p{margin:0}
    .pw-author{margin-top:8px;color:\(Palette.muted.css);font-weight:600}
    .pw-author::before{content:"\\2014\\00a0"}
    .pw-legal{margin:0;font-size:.8125rem;color:\(Palette.muted.css);text-align:center}
    .pw-divider{width:100%;margin:4px 0;border:0;border-top:1px solid \(Palette.divider.css)}
    .pw-card{display:flex;flex-direction:column;gap:12px;padding:16px;border-radius:16px;background:\(Palette.surface.css)}
    .pw-scroller{overflow-x:auto;scroll-snap-type:x mandatory;padding:4px 4px 8px}
    .pw-track{display:flex;gap:12px}
    .pw-slide{flex:0 0 min(85%,320px);scroll-snap-align:start}
    .pw-timeline li{position:relative;margin-left:8px;padding:0 0 12px 24px;border-left:2px solid \(Palette.accent.css)}
    .pw-timeline li:last-child{border-left-color:transparent}
    .pw-timeline li::before{content:"";position:absolute;left:-8px;top:4px;width:14px;height:14px;border-radius:50%;background:\(Palette.accent.css)}
    .pw-step-title{margin:0;font-weight:700}
    .pw-step-text{margin:0;color:\(Palette.muted.css)}
    .pw-icon-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(120px,1fr));gap:12px}
    .pw-icon-grid li{display:flex;flex-direction:column;align-items:center;gap:6px;padding:12px;border-radius:12px;background:\(Palette.surface.css);text-align:center}
    .pw-table-wrap{overflow-x:auto}
    .pw-table{width:100%;border-collapse:collapse}
    .pw-table th,.pw-table td{padding:8px 10px;border-bottom:1px solid \(Palette.divider.css);text-align:center}
    .pw-table th[scope=row]{text-align:left;font-weight:600}
    .pw-sticky{position:sticky;bottom:0;z-index:1;display:flex;flex-direction:column;gap:8px;padding:12px 0 16px;border-top:1px solid \(Palette.divider.css);background:\(Palette.page.css)}

    """

    private static let plans = """
    .pw-plans{min-width:0;margin:0;padding:0;border:0}
    .pw-plan-list{display:flex;flex-direction:column;gap:12px}
    .pw-plan{position:relative;display:block;cursor:pointer}
    .pw-plan .pw-radio{position:absolute;top:0;left:0;width:1px;height:1px;margin:0;opacity:0}
    .pw-plan-body{display:flex;flex-direction:column;gap:4px;height:100%;padding:14px 16px;border:2px solid \(Palette.outline.css);border-radius:12px;background:\(Palette.surface.css)}
    .pw-radio:checked+.pw-plan-body{border-color:\(Palette.accent.css);background:\(Palette.selected.css);box-shadow:0 0 0 1px \(Palette.accent.css)}
    .pw-radio:focus-visible+.pw-plan-body{outline:3px solid \(Palette.accent.css);outline-offset:2px}
    .pw-plan-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 6px}
    .pw-plan-price,.pw-plan-name{font-size:1.25rem;font-weight:700}
    .pw-plan-period,.pw-plan-trial{color:\(Palette.muted.css)}
    .pw-plan-details{display:flex;flex-wrap:wrap;gap:4px 12px;font-size:.9375rem}
    .pw-plan-details:empty{display:none}
    .pw-plan-save{padding:0 8px;border-radius:999px;background:\(Palette.saveBackground.css);color:\(Palette.saveInk.css);font-weight:600}
    .pw-badge{align-self:flex-start;padding:2px 10px;border-radius:999px;background:\(Palette.accent.css);color:\(Palette.onAccent.css);font-size:.8125rem;font-weight:700}
    .pw-empty{visibility:hidden}
    .pw-empty::before{content:"\\00a0"}
    @media (forced-colors:active){.pw-radio:checked+.pw-plan-body{border-width:4px;border-color:Highlight}}

    """

    private static let planStyles = """
    .pw-plans-horizontal_cards .pw-plan-list,.pw-plans-pill_selector .pw-plan-list,.pw-plans-toggle_switch .pw-plan-list,.pw-plans-segmented_control .pw-plan-list{flex-direction:row;flex-wrap:wrap}
    .pw-plans-horizontal_cards .pw-plan{flex:1 1 140px}
    .pw-plans-toggle_switch .pw-plan-list{gap:4px;padding:4px;border:2px solid \(Palette.outline.css);border-radius:24px;background:\(Palette.surface.css)}
    .pw-plans-toggle_switch .pw-plan{flex:1 1 120px}
    .pw-plans-toggle_switch .pw-plan-body{align-items:center;padding:8px 12px;border-color:transparent;border-radius:20px;text-align:center}
    .pw-plans-toggle_switch .pw-plan-head{justify-content:center}
    .pw-plans-segmented_control .pw-plan-list{gap:0}
    .pw-plans-segmented_control .pw-plan{flex:1 1 0;min-width:96px}
    .pw-plans-segmented_control .pw-plan-body{align-items:center;padding:10px 6px;border-radius:0;text-align:center}
    .pw-plans-segmented_control .pw-plan-head{flex-direction:column;align-items:center;gap:0}
    .pw-plans-segmented_control .pw-plan-price{font-size:1rem}
    .pw-plans-segmented_control .pw-plan:first-child .pw-plan-body{border-radius:12px 0 0 12px}
    .pw-plans-segmented_control .pw-plan:last-child .pw-plan-body{border-radius:0 12px 12px 0}
    .pw-plans-segmented_control .pw-plan+.pw-plan .pw-plan-body{margin-left:-2px}
    .pw-plans-radio_list .pw-plan .pw-radio,.pw-plans-accordion .pw-plan .pw-radio,.pw-plans-minimal_text .pw-plan .pw-radio{top:18px;left:16px;width:20px;height:20px;opacity:1;accent-color:\(Palette.accent.css)}
    .pw-plans-radio_list .pw-plan-body,.pw-plans-accordion .pw-plan-body{padding-left:48px}
    .pw-plans-radio_list .pw-radio:focus-visible+.pw-plan-body,.pw-plans-accordion .pw-radio:focus-visible+.pw-plan-body,.pw-plans-minimal_text .pw-radio:focus-visible+.pw-plan-body{outline:0}
    .pw-plans-carousel .pw-plan-list{flex-direction:row;overflow-x:auto;scroll-snap-type:x mandatory;padding:6px 6px 10px}
    .pw-plans-carousel .pw-plan{flex:0 0 min(75%,220px);scroll-snap-align:start}
    .pw-plans-comparison_grid .pw-plan-list,.pw-plans-featured_highlight .pw-plan-list{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr))}
    .pw-plans-comparison_grid .pw-plan-body,.pw-plans-comparison_grid .pw-plan-head,.pw-plans-comparison_grid .pw-plan-details{flex-direction:column;align-items:center;text-align:center}
    .pw-plans-comparison_grid .pw-badge{align-self:center}
    .pw-plans-pill_selector .pw-plan-list{gap:8px}
    .pw-plans-pill_selector .pw-plan-body{flex-direction:row;flex-wrap:wrap;align-items:center;gap:4px 8px;padding:6px 16px;border-radius:999px}
    .pw-plans-pill_selector .pw-plan-price{font-size:1rem}
    .pw-plans-tier_blocks .pw-plan-body{gap:8px;padding:20px;border-radius:16px}
    .pw-plans-tier_blocks .pw-plan-price{font-size:1.75rem}
    .pw-plans-tier_blocks .pw-badge{align-self:stretch;border-radius:8px;text-align:center}
    .pw-plans-minimal_text .pw-plan-list{gap:4px}
    .pw-plans-minimal_text .pw-plan .pw-radio{top:10px;left:0}
    .pw-plans-minimal_text .pw-plan-body,.pw-plans-minimal_text .pw-radio:checked+.pw-plan-body{flex-direction:row;flex-wrap:wrap;align-items:baseline;gap:4px 12px;padding:6px 0 6px 32px;border:0;background:none;box-shadow:none}
    .pw-plans-minimal_text .pw-plan-price{font-size:1rem}
    .pw-plans-minimal_text .pw-radio:checked+.pw-plan-body .pw-plan-price{text-decoration:underline;text-underline-offset:3px}
    .pw-plans-featured_highlight .pw-plan:first-child{grid-column:1/-1}
    .pw-plans-featured_highlight .pw-plan:first-child .pw-plan-body{padding:20px}
    .pw-plans-featured_highlight .pw-plan:first-child .pw-plan-price{font-size:1.75rem}
    .pw-plans-accordion .pw-plan-list{gap:8px}
    .pw-plans-accordion .pw-plan-details{display:none}
    .pw-plans-accordion .pw-radio:checked+.pw-plan-body .pw-plan-details{display:flex}

    """

    private static let controls = """
    .pw-cta{display:block;width:100%;min-height:48px;padding:12px 20px;border:0;border-radius:12px;background:\(Palette.accent.css);color:\(Palette.onAccent.css);font:inherit;font-size:1.0625rem;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
    .pw-cta:hover{background:\(Palette.accentHover.css)}
    .pw-cta:disabled{cursor:default}
    .pw-cta:disabled:hover{background:\(Palette.accent.css)}
    .pw-promo{display:flex;flex-direction:column;gap:4px;font-weight:600}
    .pw-input{width:100%;min-height:44px;padding:10px 12px;border:2px solid \(Palette.outline.css);border-radius:10px;background:\(Palette.page.css);color:\(Palette.ink.css);font:inherit;font-weight:400}
    .pw-countdown{margin:0;font-weight:600;text-align:center}
    .pw-countdown-time{color:\(Palette.accent.css);font-variant-numeric:tabular-nums}
    .pw-toggle{min-width:0;margin:0;padding:0;border:0}
    .pw-toggle-legend{margin-bottom:6px;padding:0;font-weight:600}
    .pw-toggle-options{display:flex;flex-wrap:wrap;gap:8px 20px}
    .pw-toggle-option{display:flex;align-items:center;gap:8px;cursor:pointer}
    .pw-toggle-option .pw-radio{width:20px;height:20px;margin:0;accent-color:\(Palette.accent.css)}
    .pw-toggle-price{color:\(Palette.muted.css)}
    .pw-toggle-enhanced .pw-toggle-options{display:none}
    .pw-toggle-enhanced .pw-toggle-legend{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
    .pw-switch{display:flex;width:100%;align-items:center;gap:12px;padding:12px 16px;border:2px solid \(Palette.outline.css);border-radius:12px;background:\(Palette.surface.css);color:\(Palette.ink.css);font:inherit;text-align:left;cursor:pointer}
    .pw-switch-label{flex:1;font-weight:600}
    .pw-switch-price{color:\(Palette.muted.css)}
    .pw-switch::after{content:"";flex:none;width:44px;height:24px;border-radius:12px;background:radial-gradient(circle at 12px 50%,\(Palette.page.css) 8px,\(Palette.outline.css) 9px)}
    .pw-switch[aria-checked=true]::after{background:radial-gradient(circle at 32px 50%,\(Palette.page.css) 8px,\(Palette.accent.css) 9px)}

    """

    private static let media = """
    .pw-image{display:block;width:100%;height:auto;border-radius:12px;background:\(Palette.assetBackground.css)}
    .pw-asset{position:relative;overflow:hidden;border:2px dashed \(Palette.outline.css);border-radius:12px;background:\(Palette.assetBackground.css);color:\(Palette.assetInk.css)}
    .pw-asset-box{display:block;width:100%;height:auto}
    .pw-asset-label{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;padding:8px;font-size:.875rem;text-align:center;overflow-wrap:anywhere}
    .pw-spacer{display:block}
    .pw-qr{display:block;margin:0 auto;max-width:100%;height:auto}

    """
}
