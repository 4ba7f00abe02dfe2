# camera needs a video device and ffmpeg or fswebcam; here there is none (MEMESH_CAMERA points
# nowhere), so it says so, and help shows it unavailable.
> camera
error: camera: no camera: MEMESH_CAMERA names '/nonexistent', which does not exist
> help camera
usage: camera
take a picture with the camera and load it
unavailable: no camera: MEMESH_CAMERA names '/nonexistent', which does not exist
Needs a video device (/dev/video*, or MEMESH_CAMERA=PATH) and ffmpeg or fswebcam.
