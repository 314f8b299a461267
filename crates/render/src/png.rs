//! PNG pictures: an SVG rasterized by resvg with the bundled font, so the same SVG gives the
//! same PNG on every machine.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::svg::FONT_FAMILY;

/// The one font of the pictures (DejaVu Sans Condensed Bold; licence in `fonts/`).
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSansCondensed-Bold.ttf");

/// An SVG that could not be turned into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG is malformed.
    #[error("the picture is not valid SVG: {0}")]
    Svg(String),
    /// The picture is empty or too large to rasterize.
    #[error("the picture size {0}×{1} cannot be rasterized")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        Arc::new(db)
    })
    .clone()
}

/// Rasterizes an SVG document at `zoom` times its size into PNG bytes. An opaque picture (every
/// map) is written with a palette of at most 256 colours chosen for it, which keeps a map about a
/// third of its full-colour size (mail attachments); one with transparency in full RGBA.
pub fn png(svg: &str, zoom: f32) -> Result<Vec<u8>, PngError> {
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * zoom).ceil() as u32,
        (size.height() * zoom).ceil() as u32,
    );
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(PngError::Size(w, h));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PngError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(zoom, zoom),
        &mut pixmap.as_mut(),
    );
    if pixmap.pixels().iter().all(|p| p.alpha() == 255) {
        paletted(&pixmap).map_err(|e| PngError::Encode(e.to_string()))
    } else {
        pixmap.encode_png().map_err(|e| PngError::Encode(e.to_string()))
    }
}

/// An opaque pixmap as an 8-bit palette PNG (NeuQuant picks the palette; anti-aliased edges get
/// the nearest colour).
fn paletted(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let rgba = pixmap.data();
    let quantizer = color_quant::NeuQuant::new(10, 256, rgba);
    // Maps are mostly runs of one colour: each run is looked up once.
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let mut last: Option<(&[u8], u8)> = None;
    for pixel in rgba.chunks_exact(4) {
        let index = match last {
            Some((colour, index)) if colour == pixel => index,
            _ => {
                let index = quantizer.index_of(pixel) as u8;
                last = Some((pixel, index));
                index
            }
        };
        indices.push(index);
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(quantizer.color_map_rgb());
    encoder.set_compression(png::Compression::High);
    // Filters predict neighbouring values, which palette indices are not.
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&indices)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_svg_becomes_a_png_of_its_size() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><rect width="20" height="10" fill="#f00"/><text x="1" y="9" font-size="8">Ab</text></svg>"##;
        let bytes = png(svg, 2.0).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        // IHDR width and height, big-endian, at bytes 16..24.
        assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 40);
        assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 20);
    }

    #[test]
    fn text_is_drawn_with_the_bundled_font() {
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20" font-family="{FONT_FAMILY}" font-weight="bold" font-stretch="condensed"><rect width="60" height="20" fill="#fff"/><text x="2" y="16" font-size="16" fill="#000">Mun</text></svg>"##
        );
        let pixmap = tiny_skia::Pixmap::decode_png(&png(&svg, 1.0).unwrap()).unwrap();
        let dark = pixmap.pixels().iter().filter(|p| p.red() < 100).count();
        assert!(dark > 30, "only {dark} dark pixels: the text was not drawn");
    }

    #[test]
    fn an_opaque_picture_keeps_its_colours_in_a_palette() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c9dff0"/><circle cx="10" cy="10" r="8" fill="#d4213d"/><rect x="24" y="4" width="12" height="12" fill="#3a5fcd"/></svg>"##;
        let bytes = png(svg, 1.0).unwrap();
        // IHDR colour type 3: indexed.
        assert_eq!(bytes[25], 3);
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        let at = |x: u32, y: u32| {
            let p = pixmap.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        let near = |(r, g, b): (u8, u8, u8), (er, eg, eb): (u8, u8, u8)| {
            r.abs_diff(er) <= 6 && g.abs_diff(eg) <= 6 && b.abs_diff(eb) <= 6
        };
        assert!(near(at(10, 10), (0xd4, 0x21, 0x3d)), "{:?}", at(10, 10));
        assert!(near(at(30, 10), (0x3a, 0x5f, 0xcd)), "{:?}", at(30, 10));
        assert!(near(at(20, 1), (0xc9, 0xdf, 0xf0)), "{:?}", at(20, 1));
    }

    #[test]
    fn a_picture_with_transparency_stays_full_colour() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="10" fill="#000"/></svg>"##;
        let bytes = png(svg, 1.0).unwrap();
        // IHDR colour type 6: RGBA.
        assert_eq!(bytes[25], 6);
    }

    #[test]
    fn malformed_svg_is_an_error_not_a_panic() {
        assert!(matches!(png("<svg", 1.0), Err(PngError::Svg(_))));
    }
}
