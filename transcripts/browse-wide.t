# The sent memes' table lines up in terminal columns: CJK and emoji take two columns each,
# combining accents and Arabic vowel marks none; long captions end in "…" within 24 columns,
# never inside a character (an accent stays on its letter, a flag and a ZWJ emoji stay whole).
> load images/square.png
square.png: 64×64 PNG
> caption 日本語のキャプションはとても長いです | 下
> share
saved meme 1
> load images/square.png
square.png: 64×64 PNG
> caption 👨‍👩‍👧 family 👍🏽 🇯🇵🇫🇷 | ❤️ ok
> share
saved meme 2
> load images/square.png
square.png: 64×64 PNG
> caption Amélie café | mañana
> share
saved meme 3
> load images/square.png
square.png: 64×64 PNG
> caption مَرْحَبًا بالعالم | plain
> share
saved meme 4
> load images/square.png
square.png: 64×64 PNG
> caption 🇯🇵🇫🇷🇩🇪🇬🇧🇮🇹🇪🇸🇺🇸🇨🇦🇧🇷🇲🇽🇦🇷🇨🇱🇵🇪 | ééééééééééééééééééééééééé
> share
saved meme 5
> browse
ID  TOP                      BOTTOM                    FONT   SIZE   CREATED
 1  日本語のキャプションは…  下                        Anton  64×64  [date]
 2  👨‍👩‍👧 family 👍🏽 🇯🇵🇫🇷        ❤️ ok                     Anton  64×64  [date]
 3  Amélie café              mañana                    Anton  64×64  [date]
 4  مَرْحَبًا بالعالم            plain                     Anton  64×64  [date]
 5  🇯🇵🇫🇷🇩🇪🇬🇧🇮🇹🇪🇸🇺🇸🇨🇦🇧🇷🇲🇽🇦🇷…  ééééééééééééééééééééééé…  Anton  64×64  [date]
