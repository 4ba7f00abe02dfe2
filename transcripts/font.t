# font [NAME] picks a font by name (any case, dashes optional); fonts lists them.
> font
font: Anton
> font oswald
font: Oswald
> font BEBAS-NEUE
font: BebasNeue
> font Comic Sans
error: font: unknown font 'Comic Sans' (available: Anton, BebasNeue, DejaVuSans-Bold, Oswald; 'fonts --installed' lists the system's)
> fonts
  Anton            bundled
* BebasNeue        bundled
  DejaVuSans-Bold  bundled
  Oswald           bundled
sample: WHEN THE CODE COMPILES 123; 'font NAME' picks one, * marks the current font
> info
image:
width:
height:
format:
top:
bottom:
font: BebasNeue
crop: off
unsaved changes: yes
editing:
