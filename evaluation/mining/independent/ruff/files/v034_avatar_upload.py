"""Store user avatars."""

from io import BytesIO

from PIL import Image, UnidentifiedImageError

MAX_EDGE = 512


def store_avatar(user_id: int, data: bytes, storage) -> str:
    try:
        image = Image.open(BytesIO(data))
        image.thumbnail((MAX_EDGE, MAX_EDGE))
        buffer = BytesIO()
        image.save(buffer, format="PNG")
    except UnidentifiedImageError:
        raise ValueError("the upload is not an image") from None
    except ValueError:
        raise ValueError("the image could not be resized") from None
    except ValueError:
        raise ValueError("unsupported image mode") from None
    return storage.put(f"avatars/{user_id}.png", buffer.getvalue())
