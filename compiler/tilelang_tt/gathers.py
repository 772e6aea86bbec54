"""Reader code for tiles gathered element-wise from a row-major tensor: the im2col rows of a convolution.

The image is an NHWC tensor stored row-major in DRAM, one page per (n, h, w) position holding its C
channels (AttachTensorAccessorTT). Row i of a block_M x block_K im2col tile is output position
m = nhw_step * block_M + i, i.e. (n, oh, ow) of the (N, OH, OW) grid; column j is window entry
k = c_step * block_K + j, i.e. (kh, kw, c) with c fastest, the order of a (KH, KW, C, F) weight tensor
flattened to (KH * KW * C, F). The element is image[n, oh * stride + kh * dilation - pad, ow * stride + kw
* dilation - pad, c], or 0 where that lies in the padding (or m, k lie past the end of the grid).

Channels are contiguous in a page, so a row is fetched in runs of channels (C is a multiple of 32): the
whole row at once when block_K divides C (a row then lies in one window position), else runs of 32; one
NOC read per run, from byte offset c * element_bytes of the position's page, into the row's
place in a row-major staging block in L1 (64-byte aligned on both sides for 16-bit data); a run in the
padding is zero-filled instead. The reader pushes the block 32 rows at a time — one strip of block_K / 32
tile-sized pages, the unit ``tilize_block`` consumes — and compute tilizes each strip into the tile.
Indices are unsigned in the kernel, so the padding test compares ``oh * stride + kh * dilation`` against
``pad`` and ``height + pad`` instead of forming a negative coordinate.
"""

from __future__ import annotations

from tvm import tirx

from . import ops
from .ir_utils import cb_var, comment, dsl_comment, extern, loop, seq, simplify, uint_var, zero_fill_l1
from .records import CircularBuffer
from .target import TILE

RUN = TILE  # channels fetched by one NOC read


def lower_im2col_read(call, entry: CircularBuffer, accessor, element_bytes: int) -> tirx.Stmt:
    """``tt.read_im2col(...)`` of ops.SPECS → per 32-row strip: reserve, one NOC read (or zero fill) per
    run of 32 channels of each row, barrier, push. ``accessor`` is the image's TensorAccessor variable."""
    f = ops.fields(call)
    cb = cb_var(entry)
    strip_pages = f.cols // TILE
    # A block whose columns divide C never crosses a window position (kh, kw): each row is one run of
    # f.cols channels, contiguous in the position's page, read at once; else runs of 32 channels.
    run_channels = f.cols if f.channels % f.cols == 0 else RUN
    run_bytes = run_channels * element_bytes
    base = uint_var(f"l1_write_addr_{entry.name[3:]}")

    def run(strip, r, j):
        m = uint_var("m")
        k = uint_var("k")
        h_pad = uint_var("h_padded")
        w_pad = uint_var("w_padded")
        dst = uint_var("run_addr")
        window = f.kernel * f.kernel * f.channels
        ow, oh_ow = tirx.floormod(m, f.out_width), tirx.floormod(m, f.out_height * f.out_width)
        kh, kw = (
            tirx.floordiv(k, f.kernel * f.channels),
            tirx.floormod(tirx.floordiv(k, f.channels), f.kernel),
        )
        terms = [tirx.LT(m, f.positions), tirx.LT(k, window)]
        if f.pad:  # without padding a window never starts before the image
            terms += [tirx.GE(h_pad, f.pad), tirx.GE(w_pad, f.pad)]
        terms += [tirx.LT(h_pad, f.height + f.pad), tirx.LT(w_pad, f.width + f.pad)]
        inside = terms[0]
        for term in terms[1:]:
            inside = tirx.And(inside, term)
        position = (tirx.floordiv(m, f.out_height * f.out_width) * f.height + (h_pad - f.pad)) * f.width + (
            w_pad - f.pad
        )
        source = tirx.call_extern(
            "int32",
            "get_noc_addr",
            simplify(position),
            f.tensor,
            simplify(tirx.floormod(k, f.channels) * element_bytes),
        )
        return seq(
            [
                tirx.Bind(m, simplify(f.nhw_step * f.rows + strip * TILE + r)),
                tirx.Bind(k, simplify(f.c_step * f.cols + j * run_channels)),
                tirx.Bind(h_pad, simplify(tirx.floordiv(oh_ow, f.out_width) * f.stride + kh * f.dilation)),
                tirx.Bind(w_pad, simplify(ow * f.stride + kw * f.dilation)),
                tirx.Bind(dst, simplify(base + (r * f.cols + j * run_channels) * element_bytes)),
                tirx.IfThenElse(
                    inside,
                    extern("noc_async_read", source, dst, run_bytes),
                    zero_fill_l1("padding", dst, run_bytes),
                ),
            ]
        )

    runs = f.cols // run_channels

    def strip(s):
        return seq(
            [
                extern("cb_reserve_back", cb, strip_pages),
                tirx.Bind(base, tirx.call_extern("int32", "get_write_ptr", cb)),
                loop("r", TILE, lambda r: loop("run", runs, lambda j: run(s, r, j))),
                extern("noc_async_read_barrier"),
                extern("cb_push_back", cb, strip_pages),
            ]
        )

    return seq(
        [
            dsl_comment(ops.loc_of(call)),
            comment(
                f"im2col rows: {f.kernel}x{f.kernel} window, stride {f.stride}, dilation {f.dilation}, "
                f"padding {f.pad}; runs of {run_channels} channels per read"
            ),
            loop("strip", f.rows // TILE, strip),
        ]
    )
