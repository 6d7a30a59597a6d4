"""Card tags: the QR payload of a card sticker, sticker images and sheets, checking a tagged deck.

- :mod:`companion.tags.envelope`: the envelope ``MAGIC<v>/<deck>/<body>`` every game shares;
- :mod:`companion.tags.payload`: ``encode``, ``classify`` (``Foreign`` / ``TagOk`` / ``TagError``)
  and ``is_ours`` (pure, no I/O): Noah's body codec;
- :mod:`companion.tags.tagged_deck`: a deck file with its deck id (``load_tagged_deck``);
- :mod:`companion.tags.sticker`: one sticker's geometry, label, and ``render_sticker`` (PIL);
- :mod:`companion.tags.sheet`: printable PDF sheets (grid with cut lines, label sheets);
- :mod:`companion.tags.check`: counting what a camera, a video or photos saw of a tagged deck.

The format is documented in docs/tags.md, the owner's guide in docs/stickers.md.
"""
